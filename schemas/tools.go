package schemas

import (
	"embed"
	"encoding/json"
	"fmt"
)

// Tool names, as the model sees them.
const (
	ToolGetCaseDetails    = "get_case_details"
	ToolUpdateCaseDetails = "update_case_details"
)

// GetCaseDetailsArgs are get_case_details' arguments (seed 003).
type GetCaseDetailsArgs struct {
	CaseID string `json:"case_id"`
}

// GetCaseDetailsResult is get_case_details' return shape: status "success" with
// case_details, or status "error" with error_message.
type GetCaseDetailsResult struct {
	Status       string         `json:"status"`
	CaseDetails  map[string]any `json:"case_details,omitempty"`
	ErrorMessage string         `json:"error_message,omitempty"`
}

// UpdateCaseDetailsArgs are update_case_details' arguments (seed 003).
type UpdateCaseDetailsArgs struct {
	CaseID  string         `json:"case_id"`
	Updates map[string]any `json:"updates"`
	// ExpectedVersion, when set, refuses the update if case_details moved past it.
	ExpectedVersion int64 `json:"expected_version,omitempty"`
}

// StatusResult is the return shape of tools that answer only a status:
// {"status": "success"} or {"status": "error", "error_message": "..."}.
type StatusResult struct {
	Status       string `json:"status"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// CaseNotFound is seed 003's error_message for a case that does not exist.
const CaseNotFound = "Case ID not found"

// Tool result statuses, as seed 003 spells them.
const (
	ResultSuccess = "success"
	ResultError   = "error"
)

//go:embed tools/*.json
var toolSchemas embed.FS

// ToolSchemaJSON returns the JSON Schema of a tool's arguments, schemas/tools/<name>.json.
func ToolSchemaJSON(name string) ([]byte, error) {
	raw, err := toolSchemas.ReadFile("tools/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("no schema for tool %q: %w", name, err)
	}
	return raw, nil
}

// ToolSchema returns the JSON Schema of a tool's arguments, decoded.
func ToolSchema(name string) (map[string]any, error) {
	raw, err := ToolSchemaJSON(name)
	if err != nil {
		return nil, err
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("schema of tool %q: %w", name, err)
	}
	return s, nil
}
