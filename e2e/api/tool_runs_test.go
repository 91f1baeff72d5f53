package api_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
	"unicode/utf8"
)

// runTool asks POST /v1/admin/tools/execute and wants 200.
func runTool(t *testing.T, tok string, body map[string]any) stack.Response {
	t.Helper()
	return runToolOn(t, s.Client, tok, body)
}

// runToolOn is runTool on c's API.
func runToolOn(t *testing.T, c *stack.Client, tok string, body map[string]any) stack.Response {
	t.Helper()
	r := c.Call(t, "POST", "/v1/admin/tools/execute", tok, body)
	if r.Status != http.StatusOK {
		t.Fatalf("run %v: %d %s", body, r.Status, r.Raw)
	}
	return r
}

// TestAdminRunsTools: an admin runs a research tool on no case and the case tools on
// a case of their organization, as ToolExecution workflows, and reads each raw result
// beside its text; each run is in the audit log with its personal data masked.
func TestAdminRunsTools(t *testing.T) {
	// Not parallel: it reads the first page of acme's audit log, which other tests write to.
	owner := s.Token(t, "tool-run-client")
	id := s.CreateCase(t, owner, "Chiriașul nu plătește chiria de trei luni")
	const cnp, email = "1800101221144", "ion.popescu@example.ro"
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", owner, map[string]any{"first_name": "Ion", "last_name": "Popescu", "cnp": cnp, "email": email}); r.Status != http.StatusCreated {
		t.Fatalf("party: %d %s", r.Status, r.Raw)
	}
	admin := s.Mint(t, auth.Identity{Subject: "tool-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})

	r := runTool(t, admin, map[string]any{"tool": "kb_search", "args": map[string]any{"query": "contract de locațiune chiria neplătită, CNP " + cnp}})
	if r.Body["status"] != schemas.ToolOK || r.Body["text"] == "" || r.Body["result"] == nil || !strings.HasPrefix(r.Body["workflow_id"].(string), "tool-run:") {
		t.Fatalf("kb_search run: %s", r.Raw)
	}
	if args := r.Body["args"].(map[string]any); args["top_k"] == nil {
		t.Errorf("the run's arguments lack the schema's defaults: %v", args)
	}
	desc, err := s.TC.DescribeWorkflowExecution(t.Context(), r.Body["workflow_id"].(string), "")
	if err != nil || desc.GetWorkflowExecutionInfo().GetType().GetName() != schemas.ToolExecutionWorkflow {
		t.Errorf("the run's workflow: %v, %v", desc, err)
	}

	r = runTool(t, admin, map[string]any{"tool": "get_party_id_by_name", "case_id": id, "args": map[string]any{"mentioned_name": "Ion Popescu"}})
	if !strings.Contains(r.Body["text"].(string), "party0") || r.Body["args"].(map[string]any)["case_id"] != id ||
		!strings.HasPrefix(r.Body["workflow_id"].(string), schemas.CaseWorkflowID(id)+":tool-run:") {
		t.Errorf("get_party_id_by_name run: %s", r.Raw)
	}
	r = runTool(t, admin, map[string]any{"tool": "kb_search", "case_id": id, "args": map[string]any{"query": "Popescu Ion, " + email + ", evacuare"}})
	if r.Body["status"] != schemas.ToolOK {
		t.Errorf("kb_search on the case: %s", r.Raw)
	}

	audit := s.Call(t, "GET", "/v1/admin/audit?org=acme", admin, nil)
	var runs int
	for _, e := range audit.Body["entries"].([]any) {
		if e := e.(map[string]any); e["action"] == "tool.execute" && e["actor"] == "tool-admin" {
			runs++
		}
	}
	if runs != 3 {
		t.Errorf("%d runs audited, want 3: %s", runs, audit.Raw)
	}
	for _, leak := range []string{cnp, email, "Popescu"} {
		if strings.Contains(string(audit.Raw), leak) {
			t.Errorf("the audit log holds %q: %s", leak, audit.Raw)
		}
	}
	for _, mask := range []string{"[cnp]", "[masked]", "[party]"} {
		if !strings.Contains(string(audit.Raw), mask) {
			t.Errorf("the audit log lacks the mask %s: %s", mask, audit.Raw)
		}
	}
}

// TestAdminToolRunKeepsNoLargeResult: a raw result too large to travel in the run's
// history is read from the blob store into the answer, whole, and deleted there.
func TestAdminToolRunKeepsNoLargeResult(t *testing.T) {
	t.Parallel()
	admin := s.Mint(t, auth.Identity{Subject: "sql-admin", Roles: []string{schemas.RoleAdmin}, Operator: true})
	r := runTool(t, admin, map[string]any{"tool": "legal_sql", "args": map[string]any{"table_name": "legislatie",
		"query_string": "SELECT text FROM legislatie ORDER BY length(text) DESC"}})
	var res struct {
		WorkflowID string          `json:"workflow_id"`
		Result     json.RawMessage `json:"result"`
		Text       string          `json:"text"`
	}
	if err := json.Unmarshal(r.Raw, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Result) < activities.ClaimCheckBytes || utf8.RuneCountInString(res.Text) > tools.MaxShownChars {
		t.Fatalf("result of %d bytes, text of %d", len(res.Result), len(res.Text))
	}
	runID := strings.TrimPrefix(res.WorkflowID, "tool-run:")
	_, err := s.Blobs.Open(t.Context(), schemas.ToolExecutionResultFolder("", runID)+"legal_sql.json")
	if !errors.Is(err, blob.ErrNotExist) {
		t.Errorf("the kept result is still in the blob store: %v", err)
	}
}

// TestAdminToolRunRefusals: clients, admins of another organization, tools that do
// not run on their own and arguments that do not fit are refused with a problem;
// those the run itself refuses (the schema, the binding) were attempted, and audited.
func TestAdminToolRunRefusals(t *testing.T) {
	t.Parallel()
	owner := s.Token(t, "tool-run-victim")
	id := s.CreateCase(t, owner, "Un litigiu de muncă")
	admin := s.Mint(t, auth.Identity{Subject: "refused-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	other := s.Mint(t, auth.Identity{Subject: "other-admin", Org: "elsewhere", Roles: []string{schemas.RoleAdmin}})
	for _, tc := range []struct {
		name   string
		tok    string
		body   any
		status int
		typ    string
	}{
		{"a client", owner, map[string]any{"tool": "get_case_details", "case_id": id}, 403, "forbidden"},
		{"another organization's case", other, map[string]any{"tool": "get_case_details", "case_id": id}, 404, "not-found"},
		{"no such case", admin, map[string]any{"tool": "get_case_details", "case_id": "not-a-uuid"}, 404, "not-found"},
		{"no tool", admin, map[string]any{"args": map[string]any{}}, 422, "invalid-input"},
		{"unknown tool", admin, map[string]any{"tool": "shell"}, 422, "invalid-input"},
		{"a child workflow's tool", admin, map[string]any{"tool": "generate_draft_pdf", "case_id": id}, 422, "invalid-input"},
		{"a case tool on no case", admin, map[string]any{"tool": "get_case_details"}, 422, "invalid-input"},
		{"a tool calling a model, on no case", admin, map[string]any{"tool": "lex_search_enriched", "args": map[string]any{"query": "locațiune"}}, 422, "invalid-input"},
		{"args not an object", admin, map[string]any{"tool": "kb_search", "args": []string{"x"}}, 422, "invalid-input"},
		{"args against the schema", admin, map[string]any{"tool": "kb_search", "args": map[string]any{"query": 3}}, 422, "invalid-input"},
		{"args naming another case", admin, map[string]any{"tool": "get_case_details", "case_id": id, "args": map[string]any{"case_id": "c-other"}}, 422, "invalid-input"},
		{"args over the limit", admin, map[string]any{"tool": "kb_search", "args": map[string]any{"query": strings.Repeat("a", schemas.MaxToolArgsBytes)}}, 422, "invalid-input"},
		{"bad JSON", admin, `{"tool":`, 400, "bad-json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stack.WantProblem(t, s.Call(t, "POST", "/v1/admin/tools/execute", tc.tok, tc.body), tc.status, tc.typ)
		})
	}
	// Only the call refused by the run's own validation was attempted, and audited.
	audit := s.Call(t, "GET", "/v1/admin/audit?case="+id, admin, nil)
	if entries := audit.Body["entries"].([]any); len(entries) != 1 || !strings.Contains(string(audit.Raw), "c-other") {
		t.Errorf("audited %s; want the one attempted run", audit.Raw)
	}
	// A case whose erasure has begun runs no more tools.
	if _, err := s.Store.BeginErasure(t.Context(), schemas.Erasure{CaseID: id, RequestedBy: "tool-run-victim", Reason: schemas.ErasureRequested}); err != nil {
		t.Fatal(err)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/admin/tools/execute", admin, map[string]any{"tool": "get_case_details", "case_id": id}), http.StatusConflict, "erasing")
}

// TestAdminToolRunsAreRateLimited: past its rate, an admin's run is refused with 429
// and Retry-After, before it is audited or run.
func TestAdminToolRunsAreRateLimited(t *testing.T) {
	t.Parallel()
	limited := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.ToolRunsPerMinute = 1 })
	admin := s.Mint(t, auth.Identity{Subject: "bulk-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	body := map[string]any{"tool": "kb_search", "args": map[string]any{"query": "locațiune"}}
	runToolOn(t, limited, admin, body)
	r := limited.Call(t, "POST", "/v1/admin/tools/execute", admin, body)
	stack.WantProblem(t, r, http.StatusTooManyRequests, "too-many-requests")
	if r.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	other := s.Mint(t, auth.Identity{Subject: "calm-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	runToolOn(t, limited, other, body)
}

// TestAttackAuditTakesDottedPaths (issue 36, finding 19): an admin's run of
// update_case_details with its documented dot paths is audited and runs; the store
// refused the audit entry's dotted keys before, and the run answered 503 without
// running.
func TestAttackAuditTakesDottedPaths(t *testing.T) {
	t.Parallel()
	owner := s.Token(t, "dotted-client")
	id := s.CreateCase(t, owner, "Furnizorul nu plătește factura")
	admin := s.Mint(t, auth.Identity{Subject: "dotted-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	r := runTool(t, admin, map[string]any{"tool": "update_case_details", "case_id": id,
		"args": map[string]any{"updates": map[string]any{"summary.current": "Factura 12 rămâne neplătită"}}})
	if r.Body["status"] != schemas.ToolOK {
		t.Fatalf("update_case_details run: %s", r.Raw)
	}
	got := s.Call(t, "GET", "/v1/cases/"+id, owner, nil)
	if summary := got.Body["case_details"].(map[string]any)["summary"].(map[string]any); summary["current"] != "Factura 12 rămâne neplătită" {
		t.Errorf("summary = %v, want the run's", summary)
	}
	audit := s.Call(t, "GET", "/v1/admin/audit?case="+id, admin, nil)
	entries := audit.Body["entries"].([]any)
	if len(entries) != 1 {
		t.Fatalf("audit entries of the case: %s", audit.Raw)
	}
	args := entries[0].(map[string]any)["detail"].(map[string]any)["args"].(map[string]any)
	if updates := args["updates"].(map[string]any); updates["summary.current"] != "[masked]" {
		t.Errorf("the entry's updates = %v, want summary.current masked", updates)
	}
}
