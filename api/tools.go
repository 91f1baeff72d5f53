package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/tools"
)

// ToolInfo describes one tool in GET /v1/tools.
type ToolInfo struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Schema      map[string]any `json:"schema"`
	Toggle      string         `json:"toggle,omitempty"`
	DefaultOn   bool           `json:"default_on"`
	Timeout     string         `json:"timeout"`
	Retry       RetryInfo      `json:"retry"`
	// Failure is the tool's failure class: "escalate" (its failure climbs the
	// escalation ladder) or "degrade" (the model is told and carries on).
	Failure   string `json:"failure"`
	Available bool   `json:"available"`
	// Unavailable says why a tool is not available, when it is not.
	Unavailable string `json:"unavailable,omitempty"`
}

// RetryInfo is a tool's retry policy.
type RetryInfo struct {
	MaxAttempts   int32  `json:"max_attempts"`
	RetryInterval string `json:"retry_interval,omitempty"`
	RetryOn       string `json:"retry_on,omitempty"`
}

// ToolList answers GET /v1/tools.
type ToolList struct {
	Tools []ToolInfo `json:"tools"`
}

// listTools answers the registry as the caller's roles see it.
func (h *handlers) listTools(c echo.Context) error {
	roles := identity(c).Roles
	out := []ToolInfo{}
	for _, tool := range tools.All() {
		if !tool.AllowedFor(roles) {
			continue
		}
		info := ToolInfo{
			Name: tool.Name, Description: tool.Description, Schema: tool.JSONSchema, Toggle: tool.Toggle, DefaultOn: tool.DefaultOn,
			Timeout: tool.Policy.Timeout.String(), Available: tool.Available() && h.Unavailable[tool.Name] == "",
			Retry: RetryInfo{MaxAttempts: tool.Policy.MaxAttempts, RetryOn: tool.Policy.RetryOn}, Unavailable: h.Unavailable[tool.Name],
			Failure: string(tool.Failure),
		}
		if !tool.Available() {
			info.Unavailable = "no activity runs it"
		}
		if tool.Policy.MaxAttempts > 1 {
			info.Retry.RetryInterval = tool.Policy.RetryInterval.String()
		}
		out = append(out, info)
	}
	return c.JSON(http.StatusOK, ToolList{Tools: out})
}
