package api

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

func resolve(t *testing.T, body string, roles ...string) ([]string, bool, bool) {
	t.Helper()
	var req SendMessageRequest
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatal(err)
	}
	sel, err := req.Resolve(roles, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sel.Tools, sel.UseMemory, sel.UseRAG
}

var caseTools = []string{"get_case_details", "update_case_details", "get_party_id_by_name", "generate_draft_pdf",
	"list_documents", "read_document", "check_quota", "create_support_ticket", "consult_reasoner", "compute_deadline", "propose_deadline",
	"generate_image", "rag_search"}

func TestResolveDefaults(t *testing.T) {
	got, memory, rag := resolve(t, `{"message": "hi"}`, schemas.RoleUser)
	want := append([]string{"normattiva_search", "eurlex_search", "infolex_search", "kb_search", "legislation_search", "lex_search", "read_legal_text"}, caseTools...)
	if !slices.Equal(got, want) || !memory || rag {
		t.Errorf("defaults = %v memory=%v rag=%v; want %v, memory on, rag off", got, memory, rag, want)
	}
	if got, _, _ := resolve(t, `{"legislation_search_enabled": false}`, schemas.RoleUser); slices.Contains(got, "legislation_search") {
		t.Errorf("legislation_search_enabled false left it on: %v", got)
	}
	// An admin also gets legal_sql, on by default.
	if got, _, _ := resolve(t, `{}`, schemas.RoleAdmin); !slices.Contains(got, "legal_sql") {
		t.Errorf("admin defaults lack legal_sql: %v", got)
	}
}

func TestResolveLexeKeys(t *testing.T) {
	got, memory, rag := resolve(t, `{"web_search_enabled": true, "normattiva_enabled": false, "lex_search_enriched_enabled": true,
		"use_memory_retrieval": false, "use_rag_v3_retrieval": true}`, schemas.RoleUser)
	for tool, on := range map[string]bool{"web_search": true, "normattiva_search": false, "lex_search_enriched": true, "eurlex_search": true} {
		if slices.Contains(got, tool) != on {
			t.Errorf("%s on = %v, want %v (%v)", tool, !on, on, got)
		}
	}
	if memory || !rag {
		t.Errorf("memory=%v rag=%v", memory, rag)
	}
}

func TestResolveToolsList(t *testing.T) {
	got, _, _ := resolve(t, `{"tools": ["web-search", "get_case_details"]}`, schemas.RoleUser)
	if !slices.Equal(got, []string{"web_search", "get_case_details"}) {
		t.Errorf("tools list = %v", got)
	}
	// A boolean key has the last word over the list.
	got, _, _ = resolve(t, `{"tools": ["web_search", "kb_search"], "kb_search_enabled": false, "eurlex_enabled": true}`, schemas.RoleUser)
	if !slices.Equal(got, []string{"eurlex_search", "web_search"}) {
		t.Errorf("list with keys = %v", got)
	}
	if got, _, _ := resolve(t, `{"tools": []}`, schemas.RoleUser); len(got) != 0 {
		t.Errorf("empty list = %v, want no tools", got)
	}
}

func TestResolveRefusesUnknownAndForbidden(t *testing.T) {
	for _, body := range []string{`{"tools": ["teleport"]}`, `{"tools": ["legal_sql"]}`, `{"tools": ["db-query"]}`} {
		var req SendMessageRequest
		_ = json.Unmarshal([]byte(body), &req)
		if _, err := req.Resolve([]string{schemas.RoleUser}, nil); err == nil {
			t.Errorf("%s accepted for a user", body)
		}
	}
}

func TestResolveDropsWhatTheDeploymentCannotServe(t *testing.T) {
	var req SendMessageRequest
	_ = json.Unmarshal([]byte(`{"web_search_enabled": true, "lex_search_enabled": true}`), &req)
	sel, err := req.Resolve([]string{schemas.RoleUser}, []string{"web_search", "lex_search", "lex_search_enriched"})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(sel.Tools, "web_search") || slices.Contains(sel.Tools, "lex_search") || !slices.Contains(sel.Tools, "kb_search") {
		t.Errorf("selection = %v", sel.Tools)
	}
}

// TestSystemStatsNeitherOfferedNorNamedByClients: a client's turn never has
// system_stats, by default or named in its tools list (an error, as any tool its roles
// may not use); an admin's has it by default.
func TestSystemStatsNeitherOfferedNorNamedByClients(t *testing.T) {
	if got, _, _ := resolve(t, `{}`, schemas.RoleUser); slices.Contains(got, schemas.ToolSystemStats) {
		t.Errorf("a client's defaults hold system_stats: %v", got)
	}
	var req Toggles
	if err := json.Unmarshal([]byte(`{"tools": ["system_stats"]}`), &req); err != nil {
		t.Fatal(err)
	}
	if sel, err := req.Resolve([]string{schemas.RoleUser, schemas.RoleSupport}, nil); err == nil {
		t.Errorf("a client named system_stats and got %v", sel.Tools)
	}
	if got, _, _ := resolve(t, `{}`, schemas.RoleAdmin); !slices.Contains(got, schemas.ToolSystemStats) {
		t.Errorf("admin defaults lack system_stats: %v", got)
	}
}
