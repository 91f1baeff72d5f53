package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// deadlineBody is a Romanian appeal term of 30 days from a judgment communicated on
// from, with the reminders given.
func deadlineBody(from string, reminders ...string) map[string]any {
	body := map[string]any{"title": "Apel împotriva sentinței", "source": map[string]any{"kind": "court_order", "reference": "Sentința 12/2030", "date": from},
		"computation": map[string]any{"jurisdiction": "ro", "from": from, "amount": 30, "unit": "days"}}
	if reminders != nil {
		body["reminders"] = reminders
	}
	return body
}

// workflowStatus polls the deadline's workflow until its status is want, for at most
// a minute.
func workflowStatus(t *testing.T, id string, want enums.WorkflowExecutionStatus) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		d, err := s.TC.DescribeWorkflowExecution(context.Background(), id, "")
		if err == nil && d.GetWorkflowExecutionInfo().GetStatus() == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("workflow %s: %v, %v; want %v", id, d.GetWorkflowExecutionInfo().GetStatus(), err, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestCaseDeadlines: a deadline set in a case is computed, starts its workflow,
// is repeatable with an Idempotency-Key, changes, shows in the owner's deadlines
// across cases soonest first, and ends its workflow when done; a deleted one is gone.
func TestCaseDeadlines(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "deadline-lawyer")
	id := s.CreateCase(t, tok, "Apel împotriva unei sentințe civile")
	key := fmt.Sprintf("dl-%d", time.Now().UnixNano())
	first := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, deadlineBody("2030-03-04"), "Idempotency-Key", key)
	if first.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", first.Status, first.Raw)
	}
	did, _ := first.Body["deadline_id"].(string)
	if first.Body["due"] != "2030-04-04" || first.Body["status"] != schemas.DeadlineActive || first.Body["zone"] != "Europe/Bucharest" ||
		!strings.Contains(string(first.Raw), `"rules":[`) || !strings.Contains(string(first.Raw), `"reminders":["168h","48h","morning"]`) {
		t.Errorf("created %s", first.Raw)
	}
	if again := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, deadlineBody("2030-03-04"), "Idempotency-Key", key); again.Status != http.StatusCreated || again.Body["deadline_id"] != did {
		t.Errorf("the same key again: %d %s, want deadline %s", again.Status, again.Raw, did)
	}
	wf := schemas.DeadlineWorkflowID(schemas.TenantKey("acme", "deadline-lawyer"), id, did)
	workflowStatus(t, wf, enums.WORKFLOW_EXECUTION_STATUS_RUNNING)

	byHand := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, map[string]any{"title": "Termen de judecată",
		"source": map[string]any{"kind": "hearing"}, "due": "2030-02-11", "jurisdiction": "ro", "reminders": []string{"30s"}})
	if byHand.Status != http.StatusCreated || byHand.Body["computation"] != nil || byHand.Body["due"] != "2030-02-11" {
		t.Fatalf("a day set by hand: %d %s", byHand.Status, byHand.Raw)
	}
	moved := s.Call(t, "PATCH", "/v1/cases/"+id+"/deadlines/"+did, tok, map[string]any{"reminders": []string{"72h", "morning"},
		"due": "2030-05-06", "jurisdiction": "ro"})
	if moved.Status != http.StatusOK || moved.Body["due"] != "2030-05-06" || moved.Body["rev"] != float64(2) || moved.Body["computation"] != nil {
		t.Errorf("moved: %d %s", moved.Status, moved.Raw)
	}
	mine := s.Call(t, "GET", "/v1/me/deadlines", tok, nil)
	if got := dueDays(mine); got != "2030-02-11 2030-05-06" {
		t.Errorf("my deadlines: %s (%s)", got, mine.Raw)
	}
	done := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines/"+did+"/done", tok, nil)
	if done.Status != http.StatusOK || done.Body["status"] != schemas.DeadlineDone {
		t.Fatalf("done: %d %s", done.Status, done.Raw)
	}
	workflowStatus(t, wf, enums.WORKFLOW_EXECUTION_STATUS_COMPLETED)
	stack.WantProblem(t, s.Call(t, "PATCH", "/v1/cases/"+id+"/deadlines/"+did, tok, map[string]any{"title": "x"}), http.StatusConflict, "conflict")

	other := byHand.Body["deadline_id"].(string)
	if r := s.Call(t, "DELETE", "/v1/cases/"+id+"/deadlines/"+other, tok, nil); r.Status != http.StatusNoContent {
		t.Errorf("delete: %d %s", r.Status, r.Raw)
	}
	workflowStatus(t, schemas.DeadlineWorkflowID(schemas.TenantKey("acme", "deadline-lawyer"), id, other), enums.WORKFLOW_EXECUTION_STATUS_COMPLETED)
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/deadlines/"+other, tok, nil), http.StatusNotFound, "not-found")
	if list := s.Call(t, "GET", "/v1/cases/"+id+"/deadlines", tok, nil); dueDays(list) != "2030-05-06" {
		t.Errorf("the case's deadlines after the delete: %s", list.Raw)
	}
	s.RecordRuns(t, "deadlines", schemas.DeadlineWorkflowID(schemas.TenantKey("acme", "deadline-lawyer"), id, ""), "deadline.")
}

// dueDays lists a deadline list's days, space-separated.
func dueDays(r stack.Response) string {
	list, _ := r.Body["deadlines"].([]any)
	var days []string
	for _, d := range list {
		days = append(days, fmt.Sprint(d.(map[string]any)["due"]))
	}
	return strings.Join(days, " ")
}

// TestProposedDeadlineIsConfirmed: a proposed deadline runs nothing until its case's
// owner, or staff of its organization, confirms it; staff of another organization
// find nothing.
func TestProposedDeadlineIsConfirmed(t *testing.T) {
	t.Parallel()
	org := fmt.Sprintf("firm-%d", time.Now().UnixNano())
	client := s.Mint(t, auth.Identity{Subject: "ioana", Org: org, Roles: []string{schemas.RoleUser}})
	staff := s.Mint(t, auth.Identity{Subject: "avocat", Org: org, Roles: []string{schemas.RoleSupport}})
	outsider := s.Mint(t, auth.Identity{Subject: "avocat", Org: org + "-other", Roles: []string{schemas.RoleSupport}})
	id := s.CreateCase(t, client, "O notificare primită de la un creditor")
	did := "5b1d0e2c-0000-4000-8000-" + fmt.Sprintf("%012d", time.Now().UnixNano()%1e12)
	if _, err := s.Store.CreateDeadline(context.Background(), store.Deadline{ID: did, CaseID: id, TenantID: org, Owner: store.OwnerID(org, "ioana"),
		Title: "Răspuns la notificare", Source: schemas.DeadlineSource{Kind: schemas.SourceCommunication}, Due: "2030-06-03",
		Zone: "Europe/Bucharest", EndsAt: time.Date(2030, 6, 3, 21, 0, 0, 0, time.UTC), Responsible: store.OwnerID(org, "ioana"),
		Reminders: schemas.DefaultReminders, Status: schemas.DeadlineProposed, ProposedBy: schemas.ProposedByAssistant}); err != nil {
		t.Fatal(err)
	}
	wf := schemas.DeadlineWorkflowID(schemas.TenantKey(org, "ioana"), id, did)
	if _, err := s.TC.DescribeWorkflowExecution(context.Background(), wf, ""); err == nil {
		t.Error("a proposed deadline runs a workflow")
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/deadlines/"+did+"/confirm", outsider, nil), http.StatusNotFound, "not-found")
	r := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines/"+did+"/confirm", staff, nil)
	if r.Status != http.StatusOK || r.Body["status"] != schemas.DeadlineActive || r.Body["confirmed_by"] != store.OwnerID(org, "avocat") {
		t.Fatalf("confirm by staff in scope: %d %s", r.Status, r.Raw)
	}
	workflowStatus(t, wf, enums.WORKFLOW_EXECUTION_STATUS_RUNNING)
	if again := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines/"+did+"/confirm", client, nil); again.Status != http.StatusOK || again.Body["rev"] != r.Body["rev"] {
		t.Errorf("confirming again: %d %s", again.Status, again.Raw)
	}
	if c := s.Call(t, "PATCH", "/v1/cases/"+id+"/deadlines/"+did, client, map[string]any{"status": "cancelled"}); c.Status != http.StatusOK {
		t.Errorf("cancel: %d %s", c.Status, c.Raw)
	}
	workflowStatus(t, wf, enums.WORKFLOW_EXECUTION_STATUS_COMPLETED)
}

// TestAttackCaseDeadlines: another user, another tenant, forged and malformed IDs,
// bad dates, oversized and malformed input are refused, and change nothing.
func TestAttackCaseDeadlines(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "deadline-victim")
	id := s.CreateCase(t, tok, "A matter with a deadline")
	r := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, deadlineBody("2030-03-04"))
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	did := r.Body["deadline_id"].(string)
	path := "/v1/cases/" + id + "/deadlines/" + did
	for name, caller := range map[string]string{
		"another user":               s.Token(t, "deadline-thief"),
		"the same subject elsewhere": s.Mint(t, auth.Identity{Subject: "deadline-victim", Org: "evil", Roles: []string{schemas.RoleUser}}),
		"another tenant's staff":     s.Mint(t, auth.Identity{Subject: "sam", Org: "evil", Roles: []string{schemas.RoleSupport, schemas.RoleAdmin}}),
	} {
		for _, req := range []struct{ method, path string }{
			{"GET", path}, {"PATCH", path}, {"DELETE", path}, {"POST", path + "/done"}, {"POST", path + "/confirm"},
			{"GET", "/v1/cases/" + id + "/deadlines"}, {"POST", "/v1/cases/" + id + "/deadlines"},
		} {
			got := s.Call(t, req.method, req.path, caller, deadlineBody("2030-03-04"))
			if got.Status != http.StatusNotFound {
				t.Errorf("%s: %s %s = %d %s, want 404", name, req.method, req.path, got.Status, got.Raw)
			}
		}
		if mine := s.Call(t, "GET", "/v1/me/deadlines", caller, nil); strings.Contains(string(mine.Raw), did) {
			t.Errorf("%s reads the deadline in their own list", name)
		}
	}
	other := s.CreateCase(t, s.Token(t, "deadline-thief"), "The thief's own case")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+other+"/deadlines/"+did, s.Token(t, "deadline-thief"), nil), http.StatusNotFound, "not-found")
	for _, forged := range []string{"not-a-uuid", "..%2f..%2fcases", "6f1c2b1e-8a0f-4a53-9a43-6c1f0e3d2b70"} {
		stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/deadlines/"+forged, tok, nil), http.StatusNotFound, "not-found")
	}
	long := strings.Repeat("x", schemas.MaxDeadlineTitleChars+1)
	for name, body := range map[string]any{
		"no title":         map[string]any{"source": map[string]any{"kind": "other"}, "due": "2030-01-07", "jurisdiction": "ro"},
		"long title":       map[string]any{"title": long, "source": map[string]any{"kind": "other"}, "due": "2030-01-07", "jurisdiction": "ro"},
		"unknown source":   map[string]any{"title": "t", "source": map[string]any{"kind": "gossip"}, "due": "2030-01-07", "jurisdiction": "ro"},
		"bad day":          map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "due": "2030-02-30", "jurisdiction": "ro"},
		"day out of range": map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "due": "2200-01-01", "jurisdiction": "ro"},
		"no jurisdiction":  map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "due": "2030-01-07"},
		"both":             map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "due": "2030-01-07", "jurisdiction": "ro", "computation": map[string]any{"jurisdiction": "ro", "from": "2030-01-07", "amount": 1, "unit": "days"}},
		"bad reminder":     map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "due": "2030-01-07", "jurisdiction": "ro", "reminders": []string{"-1h"}},
		"many reminders":   map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "due": "2030-01-07", "jurisdiction": "ro", "reminders": []string{"1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"}},
		"huge amount":      map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "computation": map[string]any{"jurisdiction": "ro", "from": "2030-01-07", "amount": 1 << 40, "unit": "days"}},
		"status on create": map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "due": "2030-01-07", "jurisdiction": "ro", "status": "done"},
		"bad responsible":  map[string]any{"title": "t", "source": map[string]any{"kind": "other"}, "due": "2030-01-07", "jurisdiction": "ro", "responsible": "a\nb"},
	} {
		t.Run(name, func(t *testing.T) {
			stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, body), http.StatusUnprocessableEntity, "invalid-input")
		})
	}
	stack.WantProblem(t, s.Call(t, "PATCH", path, tok, map[string]any{"status": "missed"}), http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, `{"title": `), http.StatusBadRequest, "bad-json")
	huge := map[string]any{"title": strings.Repeat("y", 4<<20)}
	if got := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, huge); got.Status != http.StatusRequestEntityTooLarge && got.Status != http.StatusUnprocessableEntity {
		t.Errorf("a 4 MB body: %d", got.Status)
	}
	if list := s.Call(t, "GET", "/v1/cases/"+id+"/deadlines", tok, nil); dueDays(list) != "2030-04-04" {
		t.Errorf("after the attacks the case holds %s", list.Raw)
	}
	if r := s.Call(t, "GET", path, tok, nil); r.Body["rev"] != float64(1) {
		t.Errorf("after the attacks the deadline is at rev %v", r.Body["rev"])
	}
}

// TestErasureEndsDeadlines: a legal hold keeps a case's deadlines as it keeps the
// rest; once lifted, erasing the case terminates its deadlines' workflows and
// deletes them, counted in the receipt.
func TestErasureEndsDeadlines(t *testing.T) {
	t.Parallel()
	owner := s.Token(t, "deadline-eraser")
	id := s.CreateCase(t, owner, "A case whose deadlines go with it")
	s.WaitForStatus(t, owner, id, schemas.StatusOpen, schemas.PhaseActive)
	r := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", owner, deadlineBody("2030-03-04"))
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	wf := schemas.DeadlineWorkflowID(schemas.TenantKey("acme", "deadline-eraser"), id, r.Body["deadline_id"].(string))
	workflowStatus(t, wf, enums.WORKFLOW_EXECUTION_STATUS_RUNNING)
	admin := s.Mint(t, auth.Identity{Subject: "firm-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	if h := s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", admin, map[string]any{"reason": "litigation"}); h.Status != http.StatusOK {
		t.Fatalf("hold: %d %s", h.Status, h.Raw)
	}
	stack.WantProblem(t, s.Call(t, "DELETE", "/v1/cases/"+id, owner, nil), http.StatusConflict, "legal-hold")
	if list := s.Call(t, "GET", "/v1/cases/"+id+"/deadlines", owner, nil); dueDays(list) != "2030-04-04" {
		t.Errorf("under the hold the case holds %s", list.Raw)
	}
	workflowStatus(t, wf, enums.WORKFLOW_EXECUTION_STATUS_RUNNING)
	if h := s.Call(t, "DELETE", "/v1/admin/cases/"+id+"/hold", admin, nil); h.Status != http.StatusOK && h.Status != http.StatusNoContent {
		t.Fatalf("lift: %d %s", h.Status, h.Raw)
	}
	e := s.Call(t, "DELETE", "/v1/cases/"+id, owner, nil)
	erased, _ := e.Body["erased"].(map[string]any)
	if e.Status != http.StatusOK || erased["deadlines"] != 1.0 {
		t.Fatalf("erase: %d %s", e.Status, e.Raw)
	}
	workflowStatus(t, wf, enums.WORKFLOW_EXECUTION_STATUS_TERMINATED)
	if ds, err := s.Raw.ListDeadlines(t.Context(), id); err != nil || len(ds) != 0 {
		t.Errorf("after the erasure the store holds %d deadlines, %v", len(ds), err)
	}
}
