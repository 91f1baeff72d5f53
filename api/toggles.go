package api

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// Toggles are the per-request switches of POST /v1/cases/{id}/messages: LEXE's boolean
// keys, legislation_search's key, and Sanctum's tools list. Absent keys leave the defaults.
type Toggles struct {
	WebSearch          *bool `json:"web_search_enabled"`
	Normattiva         *bool `json:"normattiva_enabled"`
	Eurlex             *bool `json:"eurlex_enabled"`
	Infolex            *bool `json:"infolex_enabled"`
	KBSearch           *bool `json:"kb_search_enabled"`
	Legislation        *bool `json:"legislation_search_enabled"`
	LexSearch          *bool `json:"lex_search_enabled"`
	LexSearchEnriched  *bool `json:"lex_search_enriched_enabled"`
	UseMemoryRetrieval *bool `json:"use_memory_retrieval"`
	UseRAGV3Retrieval  *bool `json:"use_rag_v3_retrieval"`
	// Tools, when present, names exactly the tools that are on (Sanctum's selection).
	Tools *[]string `json:"tools"`
}

// byKey returns the boolean of a LEXE toggle key, nil when the request does not set it.
func (t Toggles) byKey(key string) *bool {
	return map[string]*bool{
		schemas.ToggleWebSearch: t.WebSearch, schemas.ToggleNormattiva: t.Normattiva, schemas.ToggleEurlex: t.Eurlex,
		schemas.ToggleInfolex: t.Infolex, schemas.ToggleKBSearch: t.KBSearch, schemas.ToggleLexSearch: t.LexSearch,
		schemas.ToggleLexSearchEnriched: t.LexSearchEnriched, schemas.ToggleLegislation: t.Legislation,
	}[key]
}

// sanctumAliases maps Sanctum's tool IDs to Lexflow's.
var sanctumAliases = map[string]string{"web-search": schemas.ToolWebSearch, "db-query": schemas.ToolLegalSQL}

// Resolve turns a request's toggles into the turn's selection, for a caller with these
// roles:
//  1. each tool starts at its default;
//  2. a tools list, when present, replaces the defaults: exactly the listed tools are on;
//  3. LEXE's boolean keys then switch their own tool on or off;
//  4. tools the caller's roles may not use, or that the deployment cannot serve, are
//     off.
//
// The memory and RAG sources default to on and off. A listed tool that does not exist, or
// that the roles may not use, is an error.
func (t Toggles) Resolve(roles, unavailable []string) (schemas.Selection, error) {
	listed := map[string]bool{}
	if t.Tools != nil {
		for _, name := range *t.Tools {
			n := strings.ReplaceAll(name, "-", "_")
			if alias, ok := sanctumAliases[name]; ok {
				n = alias
			}
			if tool, ok := tools.Get(n); !ok || !tool.AllowedFor(roles) {
				return schemas.Selection{}, fmt.Errorf("unknown tool %q; GET /v1/tools lists yours", name)
			}
			listed[n] = true
		}
	}
	sel := schemas.Selection{Tools: []string{}, UseMemory: true}
	for _, tool := range tools.All() {
		on := tool.DefaultOn
		if t.Tools != nil {
			on = listed[tool.Name]
		}
		if v := t.byKey(tool.Toggle); tool.Toggle != "" && v != nil {
			on = *v
		}
		if on && tool.AllowedFor(roles) && !slices.Contains(unavailable, tool.Name) {
			sel.Tools = append(sel.Tools, tool.Name)
		}
	}
	if t.UseMemoryRetrieval != nil {
		sel.UseMemory = *t.UseMemoryRetrieval
	}
	if t.UseRAGV3Retrieval != nil {
		sel.UseRAG = *t.UseRAGV3Retrieval
	}
	return sel, nil
}
