package schemas

import (
	"encoding/json"
	"testing"
)

// TestToolUseCarriesSanctumsFields: a call's JSON names it by Sanctum's ID where it
// has one, by its own name, and with its query-like argument; decoding it back loses
// nothing of Lexflow's own fields.
func TestToolUseCarriesSanctumsFields(t *testing.T) {
	for _, c := range []struct {
		use             ToolUse
		id, name, query string
	}{
		{ToolUse{Tool: ToolLegalSQL, Args: json.RawMessage(`{"query_string":"SELECT 1","table_name":"legislatie"}`)}, "db-query", ToolLegalSQL, "SELECT 1"},
		{ToolUse{Tool: ToolWebSearch, Args: json.RawMessage(`{"query":"Bitcoin price"}`)}, "web-search", ToolWebSearch, "Bitcoin price"},
		{ToolUse{Tool: ToolGetPartyIDByName, Args: json.RawMessage(`{"mentioned_name":"Ion"}`)}, ToolGetPartyIDByName, ToolGetPartyIDByName, "Ion"},
		{ToolUse{Tool: ToolGetCaseDetails, Args: json.RawMessage(`{}`)}, ToolGetCaseDetails, ToolGetCaseDetails, ""},
		{ToolUse{Tool: ToolKBSearch, Args: json.RawMessage(`"(arguments of 70000 bytes, over the limit of 65536, not kept)"`)}, ToolKBSearch, ToolKBSearch, ""},
	} {
		raw, err := json.Marshal(c.use)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		q, _ := got["query"].(string)
		if got["tool_id"] != c.id || got["tool_name"] != c.name || q != c.query || got["tool"] != c.use.Tool {
			t.Errorf("%s: %s", c.use.Tool, raw)
		}
		var back ToolUse
		if err := json.Unmarshal(raw, &back); err != nil || back.Tool != c.use.Tool || string(back.Args) != string(c.use.Args) {
			t.Errorf("%s decoded back as %+v, %v", c.use.Tool, back, err)
		}
	}
}

// TestToolNamed: Sanctum's IDs name the registry's tools, and the registry's names
// name themselves; each tool's Sanctum ID names it back.
func TestToolNamed(t *testing.T) {
	for in, want := range map[string]string{"db-query": ToolLegalSQL, "web-search": ToolWebSearch, ToolKBSearch: ToolKBSearch, "db_query": "db_query"} {
		if got := ToolNamed(in); got != want {
			t.Errorf("ToolNamed(%q) = %q, want %q", in, got, want)
		}
	}
	for _, tool := range []string{ToolLegalSQL, ToolWebSearch, ToolKBSearch} {
		if got := ToolNamed(SanctumToolID(tool)); got != tool {
			t.Errorf("%s's Sanctum ID %q names %q", tool, SanctumToolID(tool), got)
		}
	}
}

// TestChatWorkflowIDNamesItsTenant: a chat's payloads are sealed for its tenant.
func TestChatWorkflowIDNamesItsTenant(t *testing.T) {
	if got := TenantOfWorkflow(ChatWorkflowID("o:acme", "m1")); got != "o:acme" {
		t.Errorf("TenantOfWorkflow = %q", got)
	}
}
