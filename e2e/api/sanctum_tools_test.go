package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestSanctumToolExecute: Sanctum's {tool_id, query} runs db-query (legal_sql) with
// the statement the tool_args model writes from the question, charged to the admin's
// organization, and web-search with the question as its query; each answer shows the
// question beside the arguments written, and the tool by both names.
func TestSanctumToolExecute(t *testing.T) {
	t.Parallel()
	org := "sanctum-" + uuid.NewString()[:8]
	admin := s.Mint(t, auth.Identity{Subject: "sanctum-admin", Org: org, Roles: []string{schemas.RoleAdmin}})

	r := runTool(t, admin, map[string]any{"tool_id": "db-query", "query": "How many decisions are there?"})
	args, _ := r.Body["args"].(map[string]any)
	if r.Body["tool"] != schemas.ToolLegalSQL || r.Body["tool_id"] != "db-query" || r.Body["query"] != "How many decisions are there?" ||
		args["query_string"] != "SELECT COUNT(*) AS n FROM jurisprudenta" || args["table_name"] != "jurisprudenta" || r.Body["status"] != schemas.ToolOK {
		t.Fatalf("db-query: %s", r.Raw)
	}
	rows, _ := r.Body["result"].(map[string]any)["results"].([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["n"].(float64) < 1 {
		t.Errorf("the count's rows: %v", rows)
	}
	used, err := s.Store.TokensUsed(t.Context(), schemas.TenantKey(org, ""), "", activities.Day(s.Now()))
	if err != nil || used.Tenant == 0 {
		t.Errorf("the organization was charged %+v, %v for the statement's writing", used, err)
	}

	r = runTool(t, admin, map[string]any{"tool": "db-query", "query": "Articles about risarcimento"})
	if args := r.Body["args"].(map[string]any); !strings.Contains(args["query_string"].(string), "LIKE '%risarcimento%'") || r.Body["status"] != schemas.ToolOK {
		t.Errorf("db-query named as tool: %s", r.Raw)
	}

	r = runTool(t, admin, map[string]any{"tool_id": "web-search", "query": "GDPR fines 2026"})
	if r.Body["tool"] != schemas.ToolWebSearch || r.Body["tool_id"] != "web-search" || r.Body["args"].(map[string]any)["query"] != "GDPR fines 2026" {
		t.Errorf("web-search: %s", r.Raw)
	}
	// Lexflow's own shape answers Sanctum's ID too.
	r = runTool(t, admin, map[string]any{"tool": "kb_search", "args": map[string]any{"query": "locațiune"}})
	if r.Body["tool_id"] != schemas.ToolKBSearch || r.Body["query"] != nil {
		t.Errorf("kb_search: %s", r.Raw)
	}
}

// TestAttackSanctumToolExecute: Sanctum's shape opens no door the registry keeps shut:
// forged and unknown tool IDs, a tool named twice, args beside a query, an oversized
// query, a query on another organization's case, a client, and a tool_context (no
// model reads a tool run) are refused; a question the model cannot turn into the
// tool's arguments fails as invalid arguments do, never runs the tool.
func TestAttackSanctumToolExecute(t *testing.T) {
	t.Parallel()
	owner := s.Token(t, "sanctum-victim")
	id := s.CreateCase(t, owner, "Un litigiu de muncă")
	admin := s.Mint(t, auth.Identity{Subject: "sanctum-attacker", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	other := s.Mint(t, auth.Identity{Subject: "sanctum-other", Org: "elsewhere", Roles: []string{schemas.RoleAdmin}})
	q := "How many decisions are there?"
	for _, tc := range []struct {
		name   string
		tok    string
		body   any
		status int
		typ    string
	}{
		{"a client", owner, map[string]any{"tool_id": "db-query", "query": q}, 403, "forbidden"},
		{"a forged tool_id", admin, map[string]any{"tool_id": "db-query; DROP TABLE legislatie", "query": q}, 422, "invalid-input"},
		{"an unknown tool_id", admin, map[string]any{"tool_id": "shell", "query": "ls /"}, 422, "invalid-input"},
		{"a tool named twice", admin, map[string]any{"tool": "kb_search", "tool_id": "db-query", "query": q}, 422, "invalid-input"},
		{"args beside a query", admin, map[string]any{"tool_id": "db-query", "query": q, "args": map[string]any{"query_string": "SELECT 1", "table_name": "legislatie"}}, 422, "invalid-input"},
		{"an oversized query", admin, map[string]any{"tool_id": "web-search", "query": strings.Repeat("a", schemas.MaxQuestionChars+1)}, 422, "invalid-input"},
		{"another organization's case", other, map[string]any{"tool": "get_case_details", "case_id": id, "query": "the case"}, 404, "not-found"},
		{"a tool_context", admin, map[string]any{"tool_id": "db-query", "query": q, "tool_context": "name | email\nIon | ion@example.ro"}, 400, "tool-context-refused"},
		{"arguments the model cannot write", admin, map[string]any{"tool_id": "normattiva_search", "query": "art. 2043 c.c."}, 422, "invalid-input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stack.WantProblem(t, s.Call(t, "POST", "/v1/admin/tools/execute", tc.tok, tc.body), tc.status, tc.typ)
		})
	}
	if r := s.Call(t, "GET", "/v1/admin/audit?case="+id, admin, nil); r.Status != http.StatusOK || len(r.Body["entries"].([]any)) != 0 {
		t.Errorf("a refused run on the case was audited: %s", r.Raw)
	}
}
