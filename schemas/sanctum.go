package schemas

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// sanctumToolIDs are Sanctum's tool IDs (seed 004) and the registry's tools they are.
var sanctumToolIDs = map[string]string{"web-search": ToolWebSearch, "db-query": ToolLegalSQL}

// ToolNamed is the registry's name of a tool a client names by Sanctum's ID or by the
// registry's own name: "db-query" is legal_sql, "web_search" is web_search.
func ToolNamed(name string) string {
	if tool, ok := sanctumToolIDs[name]; ok {
		return tool
	}
	return name
}

// SanctumToolID is a tool's ID as Sanctum's clients know it: Sanctum's own where it
// has one (legal_sql is db-query), else the registry's name.
func SanctumToolID(tool string) string {
	for _, id := range slices.Sorted(maps.Keys(sanctumToolIDs)) {
		if sanctumToolIDs[id] == tool {
			return id
		}
	}
	return tool
}

// queryArgs are the arguments that hold what a tool is asked, by tool kind: a search's
// query, legal_sql's statement, a party's name, a question to the reasoner.
var queryArgs = []string{"query", "query_string", "question", "mentioned_name"}

// ToolQuery is the query-like argument of a call's arguments (see queryArgs), as
// Sanctum's tools_used shows it: "" when the call has none.
func ToolQuery(args json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	for _, k := range queryArgs {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// MarshalJSON writes a tool call with Sanctum's fields beside Lexflow's: tool_id (see
// SanctumToolID), tool_name and query (see ToolQuery), worked out from Tool and Args
// so that they always agree with them.
func (u ToolUse) MarshalJSON() ([]byte, error) {
	type plain ToolUse // without this method
	return json.Marshal(struct {
		plain
		ToolID   string `json:"tool_id"`
		ToolName string `json:"tool_name"`
		Query    string `json:"query,omitempty"`
	}{plain(u), SanctumToolID(u.Tool), u.Tool, ToolQuery(u.Args)})
}
