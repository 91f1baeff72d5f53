package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/doctext/doctexttest"
	"github.com/lexflow/lexflow/schemas"
)

// TestWebSearchMaxResults: web_search honours Edison's max_results through the tool
// run route: one result asked, one result answered and shown (the stack's SearXNG
// answers two), and a count outside 1–10 refused as invalid arguments.
func TestWebSearchMaxResults(t *testing.T) {
	t.Parallel()
	admin := s.Mint(t, auth.Identity{Subject: "edison-web-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	r := runTool(t, admin, map[string]any{"tool": "web_search", "args": map[string]any{"query": "diritto all'oblio", "max_results": 1}})
	results, _ := r.Body["result"].(map[string]any)["results"].([]any)
	if r.Body["status"] != schemas.ToolOK || len(results) != 1 || r.Body["args"].(map[string]any)["max_results"] != float64(1) {
		t.Fatalf("max_results 1: %s", r.Raw)
	}
	r = runTool(t, admin, map[string]any{"tool": "web_search", "args": map[string]any{"query": "diritto all'oblio"}})
	if results, _ := r.Body["result"].(map[string]any)["results"].([]any); len(results) != 2 || r.Body["args"].(map[string]any)["max_results"] != float64(5) {
		t.Errorf("no max_results: %s", r.Raw)
	}
	bad := s.Call(t, "POST", "/v1/admin/tools/execute", admin, map[string]any{"tool": "web_search", "args": map[string]any{"query": "x", "max_results": 11}})
	stack.WantProblem(t, bad, 422, "invalid-input")
}

// TestRagSearchReadsOnlyTheCasesOwn: rag_search finds the passage of the client's own
// lease, pseudonymized, with its document and page, in a client's turn and in an
// admin's run; the same client's other case, whose note holds the words searched for,
// is reached neither by global (refused) nor by naming that case (refused), nor
// by the turn's search.
func TestRagSearchReadsOnlyTheCasesOwn(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "edison-rag-client")
	id := s.CreateCase(t, tok, "Proprietarul nu îmi restituie garanția")
	other := s.CreateCase(t, tok, "Un alt litigiu")
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, leaseParty); r.Status != http.StatusCreated {
		t.Fatalf("party: %d %s", r.Status, r.Raw)
	}
	up := s.Upload(t, tok, id, "contract.docx", doctexttest.DOCX(t, doctexttest.LeaseRO))
	note := s.Upload(t, tok, other, "nota.txt", []byte("Nota secretă: clauza zanzibar privind garanția din alt dosar."))
	if up.Status != http.StatusAccepted || note.Status != http.StatusAccepted {
		t.Fatalf("uploads: %s %s", up.Raw, note.Raw)
	}
	docID := up.Body["id"].(string)
	s.WaitForDocument(t, tok, id, docID)
	s.WaitForDocument(t, tok, other, note.Body["id"].(string))

	turn := s.Send(t, tok, id, "Caută în caz: clauza privind garanția")
	used, _ := turn.Body["tools_used"].([]any)
	if len(used) != 1 || used[0].(map[string]any)["tool"] != schemas.ToolRagSearch || used[0].(map[string]any)["status"] != schemas.ToolOK {
		t.Fatalf("the turn's tools: %s", turn.Raw)
	}
	if summary, _ := used[0].(map[string]any)["summary"].(string); !strings.Contains(summary, "Garanția se restituie") || strings.Contains(string(turn.Raw), "secretă") {
		t.Errorf("the turn's search: %s", turn.Raw)
	}

	admin := s.Mint(t, auth.Identity{Subject: "edison-rag-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	r := runTool(t, admin, map[string]any{"tool": "rag_search", "case_id": id, "args": map[string]any{"query": "când se restituie garanția", "limit": 2}})
	passages, _ := r.Body["result"].(map[string]any)["passages"].([]any)
	if r.Body["status"] != schemas.ToolOK || len(passages) == 0 || len(passages) > 2 {
		t.Fatalf("admin's search: %s", r.Raw)
	}
	var top map[string]any
	for _, p := range passages {
		if p.(map[string]any)["source"] == schemas.RagSourceDocument {
			top = p.(map[string]any)
			break
		}
	}
	if top == nil || top["source"] != schemas.RagSourceDocument || top["document_id"] != docID || top["page"] != float64(1) ||
		!strings.Contains(top["text"].(string), "{{party0.fullName}}") || !strings.Contains(r.Body["text"].(string), "page 1") {
		t.Errorf("the lease's passage: %v", passages)
	}
	noValues(t, "rag_search's result", string(r.Raw))
	for _, p := range passages {
		if strings.Contains(p.(map[string]any)["text"].(string), "secretă") {
			t.Errorf("a passage of the other case: %v", p)
		}
	}

	r = runTool(t, admin, map[string]any{"tool": "rag_search", "case_id": id, "args": map[string]any{"query": "zanzibar", "global": true}})
	if r.Body["status"] != schemas.ToolFailed || !strings.Contains(r.Body["text"].(string), "global search is not available") || strings.Contains(string(r.Raw), "secretă") {
		t.Errorf("global: %s", r.Raw)
	}
	named := s.Call(t, "POST", "/v1/admin/tools/execute", admin, map[string]any{"tool": "rag_search", "case_id": id, "args": map[string]any{"query": "zanzibar", "case_id": other}})
	if named.Status == http.StatusOK || strings.Contains(string(named.Raw), "secretă") {
		t.Errorf("another case named in the arguments: %d %s", named.Status, named.Raw)
	}
}

// TestSystemStatsForAdminsOnly: the operator's admin reads the task queue with the
// stack's worker and its build ID, the running cases and every organization's tokens of
// the day; an organization's admin its own cases and tokens, the task queue left out; a
// client is neither offered system_stats (GET /v1/tools, a message naming it) nor may
// run it.
func TestSystemStatsForAdminsOnly(t *testing.T) {
	t.Parallel()
	client := s.Token(t, "edison-stats-client")
	s.CreateCase(t, client, "Un litigiu de muncă")

	operator := s.Mint(t, auth.Identity{Subject: "edison-stats-operator", Operator: true, Roles: []string{schemas.RoleAdmin}})
	r := runTool(t, operator, map[string]any{"tool": "system_stats"})
	res, _ := r.Body["result"].(map[string]any)
	queue, _ := res["task_queue"].(map[string]any)
	cases, _ := res["cases"].(map[string]any)
	workers, _ := queue["workers"].([]any)
	if r.Body["status"] != schemas.ToolOK || queue == nil || len(workers) == 0 || cases == nil || cases["running"].(float64) < 1 || res["corpus"] == nil {
		t.Fatalf("operator's stats: %s", r.Raw)
	}
	if polls, _ := workers[0].(map[string]any)["polls"].([]any); len(polls) == 0 || !strings.Contains(r.Body["text"].(string), "Workers: ") {
		t.Errorf("workers: %v", workers)
	}
	if failed, _ := res["failed"].([]any); len(failed) != 0 {
		t.Errorf("parts failed with every source up: %v", failed)
	}
	if sizes, _ := res["store"].(map[string]any); sizes == nil || !strings.Contains(r.Body["text"].(string), "Store, documents of every organization: cases ") {
		t.Errorf("the operator's store sizes: %v", res["store"])
	} else if colls, _ := sizes["collections"].([]any); len(colls) == 0 || colls[0].(map[string]any)["documents"].(float64) < 1 {
		t.Errorf("the operator's store sizes, with cases stored: %v", colls)
	}
	if tokens, _ := res["tokens_today"].(map[string]any); tokens == nil || !strings.Contains(r.Body["text"].(string), "Model tokens of every organization on ") {
		t.Errorf("the operator's tokens of the day: %s", r.Raw)
	}

	admin := s.Mint(t, auth.Identity{Subject: "edison-stats-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	r = runTool(t, admin, map[string]any{"tool": "system_stats"})
	res, _ = r.Body["result"].(map[string]any)
	if res["organization"] != "acme" || res["task_queue"] != nil || res["store"] != nil || res["tokens_today"] == nil || res["cases"] == nil {
		t.Errorf("an organization's admin: %s", r.Raw)
	}
	if other := s.Call(t, "POST", "/v1/admin/tools/execute", admin, map[string]any{"tool": "system_stats", "args": map[string]any{"organization_id": "elsewhere"}}); other.Status == http.StatusOK {
		t.Errorf("another organization named: %s", other.Raw)
	}

	if r := s.Call(t, "GET", "/v1/tools", client, nil); r.Status != http.StatusOK || strings.Contains(string(r.Raw), schemas.ToolSystemStats) {
		t.Errorf("a client's tools list system_stats: %s", r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/admin/tools/execute", client, map[string]any{"tool": "system_stats"}), http.StatusForbidden, "forbidden")
	id := s.CreateCase(t, client, "Un alt litigiu")
	named := s.Call(t, "POST", "/v1/cases/"+id+"/messages", client, map[string]any{"message": "system stats", "tools": []string{"system_stats"}})
	if named.Status == http.StatusOK || strings.Contains(string(named.Raw), "task_queue") {
		t.Errorf("a client's message naming system_stats: %d %s", named.Status, named.Raw)
	}
}
