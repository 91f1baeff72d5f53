package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestAdminSeesTheNextModelCall: GET /v1/admin/cases/{id}/context shows an admin
// whose scope reaches the case what its next model call would read: the earlier
// turns with their tool calls and the text each result showed the model,
// pseudonymized (a party's name is its placeholder), each part with its size, and the
// client's next message when given. The read is audited; the client and another
// tenant's admin are refused.
func TestAdminSeesTheNextModelCall(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "context-owner")
	id := s.CreateCase(t, tok, "My landlord kept my deposit")
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, map[string]any{"first_name": "Ion", "last_name": "Popescu"}); r.Status != http.StatusCreated {
		t.Fatalf("party: %d %s", r.Status, r.Raw)
	}
	for _, msg := range []string{"summary: Ion Popescu kept the deposit of 2000 lei", "case details"} {
		if r := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": msg}); r.Status != http.StatusOK {
			t.Fatalf("%q: %d %s", msg, r.Status, r.Raw)
		}
	}
	operator := s.Mint(t, auth.Identity{Subject: "context-admin", Roles: []string{schemas.RoleAdmin}, Operator: true})
	path := "/v1/admin/cases/" + id + "/context"
	r := s.Call(t, "GET", path+"?message="+url.QueryEscape("What next for Ion Popescu?"), operator, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("context: %d %s", r.Status, r.Raw)
	}
	if strings.Contains(string(r.Raw), "Popescu") || !strings.Contains(string(r.Raw), "{{party0.") {
		t.Errorf("the context is not pseudonymized as the model reads it: %.600s", r.Raw)
	}
	msgs, _ := r.Body["messages"].([]any)
	parts, _ := r.Body["parts"].([]any)
	if len(msgs) == 0 || len(msgs) != len(parts) || r.Body["context_tokens"] != float64(schemas.DefaultContextTokens) {
		t.Fatalf("%d messages, %d parts, context %v", len(msgs), len(parts), r.Body["context_tokens"])
	}
	callIDs := map[string]string{}
	var caseFile string
	total := 0.0
	for i, m := range msgs {
		msg, part := m.(map[string]any), parts[i].(map[string]any)
		if part["chars"].(float64) <= 0 || part["tokens"].(float64) <= 0 {
			t.Errorf("part %d has no size: %v", i, part)
		}
		total += part["tokens"].(float64)
		calls, _ := msg["tool_calls"].([]any)
		for _, c := range calls {
			call := c.(map[string]any)
			callIDs[call["id"].(string)] = call["name"].(string)
		}
		if part["kind"] == "tool" && part["tool"] == schemas.ToolGetCaseDetails {
			if callIDs[msg["tool_call_id"].(string)] != schemas.ToolGetCaseDetails {
				t.Errorf("the case file answers call %v, which is not get_case_details'", msg["tool_call_id"])
			}
			caseFile, _ = msg["content"].(string)
		}
	}
	if !strings.Contains(caseFile, "case_details:") || !strings.Contains(caseFile, "{{party0.fullName}} kept the deposit of 2000 lei") {
		t.Errorf("the earlier case file reads %q", caseFile)
	}
	last := parts[len(parts)-1].(map[string]any)
	if last["kind"] != "turn_user" || !strings.Contains(msgs[len(msgs)-1].(map[string]any)["content"].(string), "{{party0.") ||
		total != r.Body["tokens"] {
		t.Errorf("last part %v of the message %v; tokens %v, parts' %v", last, msgs[len(msgs)-1], r.Body["tokens"], total)
	}
	if tools, _ := r.Body["tools"].([]any); len(tools) == 0 || r.Body["tool_tokens"].(float64) <= 0 {
		t.Errorf("tools %v, %v tokens", r.Body["tools"], r.Body["tool_tokens"])
	}

	foreign := s.Mint(t, auth.Identity{Subject: "context-admin", Org: "another-firm", Roles: []string{schemas.RoleAdmin}})
	stack.WantProblem(t, s.Call(t, "GET", path, foreign, nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "GET", path, tok, nil), http.StatusForbidden, "forbidden")
	audit := s.Call(t, "GET", "/v1/admin/audit?case="+id, operator, nil)
	reads := 0
	for _, e := range audit.Body["entries"].([]any) {
		if e.(map[string]any)["action"] == "case.context.read" {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("%d audited context reads, want 1", reads)
	}
}
