package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// chat sends POST /v1/chat and decodes its 200 answer.
func chat(t *testing.T, tok string, body map[string]any) schemas.ChatAnswer {
	t.Helper()
	r := s.Call(t, "POST", "/v1/chat", tok, body)
	if r.Status != http.StatusOK {
		t.Fatalf("chat %v: %d %s", body, r.Status, r.Raw)
	}
	var out schemas.ChatAnswer
	if err := json.Unmarshal(r.Raw, &out); err != nil {
		t.Fatal(err)
	}
	for i, u := range r.Body["tools_used"].([]any) { // Sanctum's fields, as the client reads them
		u := u.(map[string]any)
		if u["tool_id"] != schemas.SanctumToolID(out.ToolsUsed[i].Tool) || u["tool_name"] != out.ToolsUsed[i].Tool {
			t.Errorf("tools_used[%d] = %v", i, u)
		}
	}
	return out
}

// TestSanctumChat: POST /v1/chat answers with no case, running only the tools it
// names, each with the message as its question (db-query's statement written by the
// model), before the one model call, whose answer reads their results; it answers
// Sanctum's {message, model, provider, tools_used}, as a Chat workflow of the
// caller's tenant, charged to the tenant's budget.
func TestSanctumChat(t *testing.T) {
	t.Parallel()
	org := "chat-" + uuid.NewString()[:8]
	user := s.Mint(t, auth.Identity{Subject: "chatter", Org: org, Roles: []string{schemas.RoleUser}})

	got := chat(t, user, map[string]any{"message": "What is the latest news on GDPR fines?", "tools": []string{"web-search"}})
	if len(got.ToolsUsed) != 1 || got.ToolsUsed[0].Tool != schemas.ToolWebSearch || got.ToolsUsed[0].Status != schemas.ToolOK ||
		schemas.ToolQuery(got.ToolsUsed[0].Args) != "What is the latest news on GDPR fines?" {
		t.Fatalf("tools_used %+v", got.ToolsUsed)
	}
	if !strings.HasPrefix(got.Message, "From the tools:\n- web_search: ") || got.Model != "lexflow-offline" || got.Provider != "generic" || got.Usage.Total == 0 {
		t.Errorf("answer %+v", got)
	}
	none := chat(t, user, map[string]any{"message": "Hello there, what can you do?"})
	if len(none.ToolsUsed) != 0 || none.Message != "No tool ran for this message, and I answer only from what tools find." {
		t.Errorf("a chat naming no tool: %+v", none)
	}
	used, err := s.Store.TokensUsed(t.Context(), schemas.TenantKey(org, ""), "", activities.Day(s.Now()))
	if err != nil || used.Tenant < got.Usage.Total+none.Usage.Total {
		t.Errorf("the organization was charged %+v, %v; the chats used %d", used, err, got.Usage.Total+none.Usage.Total)
	}

	admin := s.Mint(t, auth.Identity{Subject: "chat-admin", Org: org, Roles: []string{schemas.RoleAdmin}})
	got = chat(t, admin, map[string]any{"message": "How many decisions are there?", "tools": []string{"db-query"}})
	if len(got.ToolsUsed) != 1 || schemas.ToolQuery(got.ToolsUsed[0].Args) != "SELECT COUNT(*) AS n FROM jurisprudenta" ||
		!strings.Contains(got.Message, "- legal_sql: ") {
		t.Errorf("db-query: %+v", got)
	}
}

// TestSanctumChatToolContext: an admin's tool_context is read by the model
// pseudonymized (its e-mail address reaches the model, and so the offline model's
// answer, as a marker), db-query is not run beside it, and the chat is audited with
// the context's size, never its text.
func TestSanctumChatToolContext(t *testing.T) {
	t.Parallel()
	org := "chatctx-" + uuid.NewString()[:8]
	admin := s.Mint(t, auth.Identity{Subject: "ctx-admin", Org: org, Roles: []string{schemas.RoleAdmin}})
	const email = "ion.popescu@example.ro"
	ctx := "name | email\nIon | " + email
	got := chat(t, admin, map[string]any{"message": "Summarize the most recent users", "tools": []string{"db-query", "web-search"}, "tool_context": ctx})
	if len(got.ToolsUsed) != 1 || got.ToolsUsed[0].Tool != schemas.ToolWebSearch {
		t.Errorf("with a tool_context only web-search runs: %+v", got.ToolsUsed)
	}
	if !strings.Contains(got.Message, "- tool_context: name | email") {
		t.Errorf("the model did not read the context: %q", got.Message)
	}
	got = chat(t, admin, map[string]any{"message": "Who is this?", "tool_context": "Ion | " + email})
	if strings.Contains(got.Message, email) || !strings.Contains(got.Message, "{{doc.email.") {
		t.Errorf("the model read the context unmasked: %q", got.Message)
	}
	audit := s.Call(t, "GET", "/v1/admin/audit?org="+org, admin, nil)
	entries, _ := audit.Body["entries"].([]any)
	if audit.Status != http.StatusOK || len(entries) != 2 || strings.Contains(string(audit.Raw), email) || strings.Contains(string(audit.Raw), "Ion") {
		t.Fatalf("audit: %s", audit.Raw)
	}
	for _, e := range entries {
		e := e.(map[string]any)
		if e["action"] != "chat.tool_context" || e["detail"].(map[string]any)["tool_context_chars"] == nil {
			t.Errorf("audit entry %v", e)
		}
	}
}

// TestAttackSanctumChat: a client's tool_context is 400; a case tool, a tool that
// calls a model, an admin's tool for a client, a forged tool ID, too many tools and
// oversized texts are 422, before anything runs; a chat is its caller's tenant's
// alone.
func TestAttackSanctumChat(t *testing.T) {
	t.Parallel()
	org := "chatattack-" + uuid.NewString()[:8]
	user := s.Mint(t, auth.Identity{Subject: "mallory", Org: org, Roles: []string{schemas.RoleUser}})
	admin := s.Mint(t, auth.Identity{Subject: "chat-root", Org: org, Roles: []string{schemas.RoleAdmin}})
	for _, tc := range []struct {
		name   string
		tok    string
		body   any
		status int
		typ    string
	}{
		{"a client's tool_context", user, map[string]any{"message": "hi", "tool_context": "name | email\nEve | eve@example.org"}, 400, "tool-context-refused"},
		{"a case tool", user, map[string]any{"message": "hi", "tools": []string{"get_case_details"}}, 422, "invalid-input"},
		{"a case tool for an admin", admin, map[string]any{"message": "hi", "tools": []string{"update_case_details"}}, 422, "invalid-input"},
		{"a tool bound to the user", user, map[string]any{"message": "hi", "tools": []string{"check_quota"}}, 422, "invalid-input"},
		{"a child workflow's tool", user, map[string]any{"message": "hi", "tools": []string{"generate_draft_pdf"}}, 422, "invalid-input"},
		{"a tool calling a model", user, map[string]any{"message": "hi", "tools": []string{"lex_search_enriched"}}, 422, "invalid-input"},
		{"the reasoner", user, map[string]any{"message": "hi", "tools": []string{"consult_reasoner"}}, 422, "invalid-input"},
		{"db-query for a client", user, map[string]any{"message": "How many users?", "tools": []string{"db-query"}}, 422, "invalid-input"},
		{"a forged tool_id", user, map[string]any{"message": "hi", "tools": []string{"web-search; cat /etc/passwd"}}, 422, "invalid-input"},
		{"too many tools", user, map[string]any{"message": "hi", "tools": []string{"web-search", "kb_search", "lex_search", "normattiva_search"}}, 422, "invalid-input"},
		{"an oversized message", user, map[string]any{"message": strings.Repeat("a", schemas.MaxQuestionChars+1)}, 422, "invalid-input"},
		{"an oversized tool_context", admin, map[string]any{"message": "hi", "tool_context": strings.Repeat("a", schemas.MaxToolContextChars+1)}, 422, "invalid-input"},
		{"no message", user, map[string]any{"tools": []string{"web-search"}}, 422, "invalid-input"},
		{"a bad language", user, map[string]any{"message": "hi", "language": "fr"}, 422, "invalid-input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stack.WantProblem(t, s.Call(t, "POST", "/v1/chat", tc.tok, tc.body), tc.status, tc.typ)
		})
	}
	if used, err := s.Store.TokensUsed(t.Context(), schemas.TenantKey(org, ""), "", activities.Day(s.Now())); err != nil || used.Tenant != 0 {
		t.Errorf("refused chats were charged %+v, %v", used, err)
	}
	// Another tenant's chat is charged to it, and its workflow names it: its payloads
	// are sealed with its key, and its erasure of its texts takes it along.
	other := s.Mint(t, auth.Identity{Subject: "bystander", Org: "chatother-" + uuid.NewString()[:8], Roles: []string{schemas.RoleUser}})
	chat(t, other, map[string]any{"message": "Hello"})
	if used, _ := s.Store.TokensUsed(t.Context(), schemas.TenantKey(org, ""), "", activities.Day(s.Now())); used.Tenant != 0 {
		t.Errorf("another tenant's chat was charged to this one: %+v", used)
	}
}

// TestSanctumChatIsBilledToItsTenant: once the tenant's model-token budget is used up,
// a chat is 402 budget-exhausted with Retry-After, as a query is; the chat that used
// it up, under budget when it started, finished.
func TestSanctumChatIsBilledToItsTenant(t *testing.T) {
	t.Parallel()
	org := "chatbudget-" + uuid.NewString()[:8]
	user := s.Mint(t, auth.Identity{Subject: "spender", Org: org, Roles: []string{schemas.RoleUser}})
	ops := s.Mint(t, auth.Identity{Subject: "ops", Roles: []string{schemas.RoleAdmin}, Operator: true})
	if r := s.Call(t, "PUT", "/v1/admin/budgets/org:"+org, ops, map[string]any{"tokens_per_day": 1}); r.Status != http.StatusOK {
		t.Fatalf("budget: %d %s", r.Status, r.Raw)
	}
	chat(t, user, map[string]any{"message": "What is the latest news on GDPR fines?", "tools": []string{"web-search"}})
	r := s.Call(t, "POST", "/v1/chat", user, map[string]any{"message": "And the fines of 2025?"})
	stack.WantProblem(t, r, http.StatusPaymentRequired, "budget-exhausted")
	if r.Header.Get("Retry-After") == "" {
		t.Error("402 budget-exhausted without Retry-After")
	}
}
