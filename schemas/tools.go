package schemas

import (
	"embed"
	"fmt"
)

// LEXE's request keys that switch a tool on or off for one turn (seed 000).
const (
	ToggleWebSearch         = "web_search_enabled"
	ToggleNormattiva        = "normattiva_enabled"
	ToggleEurlex            = "eurlex_enabled"
	ToggleInfolex           = "infolex_enabled"
	ToggleKBSearch          = "kb_search_enabled"
	ToggleLegislation       = "legislation_search_enabled"
	ToggleLexSearch         = "lex_search_enabled"
	ToggleLexSearchEnriched = "lex_search_enriched_enabled"
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
