package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/worker"
)

// TestEraseCase: a case's owner erases it. Others cannot; afterwards the case answers
// 410 to its owner, the store keeps nothing of it but the receipt, its blobs are gone,
// its key is destroyed so that no payload of its histories opens, and asking again
// answers with the same receipt.
func TestEraseCase(t *testing.T) {
	t.Parallel()
	const canary = "Gheorghița Canarache-Erase"
	owner := s.Token(t, "erase-client")
	id := s.CreateCase(t, owner, "My neighbour "+canary+" floods my flat every week")
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", owner, map[string]any{"first_name": "Gheorghița", "last_name": "Canarache-Erase"}); r.Status != http.StatusCreated {
		t.Fatalf("party: %d %s", r.Status, r.Raw)
	}
	s.Send(t, owner, id, "Her name is "+canary+"; what can I do?")
	if err := s.Blobs.Put(t.Context(), schemas.CaseBlobPrefix(id)+"drafts/Notificare/rev-1.pdf", []byte("%PDF "+canary)); err != nil {
		t.Fatal(err)
	}
	up := s.Upload(t, owner, id, "flood.txt", []byte("Water came from the flat of "+canary+" again."))
	if up.Status != http.StatusAccepted {
		t.Fatalf("upload: %d %s", up.Status, up.Raw)
	}
	s.WaitForDocument(t, owner, id, up.Body["id"].(string))
	sealedInput := startPayloads(t, id)

	for who, tok := range map[string]string{
		"another client":          s.Token(t, "erase-neighbour"),
		"an admin of another org": s.Mint(t, auth.Identity{Subject: "boss", Org: "elsewhere", Roles: []string{schemas.RoleAdmin}}),
		"support of its org":      s.Mint(t, auth.Identity{Subject: "desk", Org: "acme", Roles: []string{schemas.RoleSupport}}),
	} {
		stack.WantProblem(t, s.Call(t, "DELETE", "/v1/cases/"+id, tok, nil), http.StatusNotFound, "not-found")
		if _, err := s.Store.GetCase(t.Context(), id); err != nil {
			t.Fatalf("%s erased the case: %v", who, err)
		}
	}

	r := s.Call(t, "DELETE", "/v1/cases/"+id, owner, nil)
	if r.Status != http.StatusOK || r.Body["status"] != "erased" || r.Body["reason"] != schemas.ErasureRequested || r.Body["requested_by"] != "erase-client" {
		t.Fatalf("erase: %d %s", r.Status, r.Raw)
	}
	erased, _ := r.Body["erased"].(map[string]any)
	messages, _ := erased["messages"].(float64)
	events, _ := erased["events"].(float64)
	if erased["cases"] != 1.0 || erased["parties"] != 1.0 || messages < 2 || events < 1 ||
		erased["files"] != 3.0 || erased["key_destroyed_at"] == nil { // the draft, and the document and its text
		t.Errorf("the receipt counts %v", erased)
	}

	// Gone for its owner, absent for everyone else; asking again shows the receipt.
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id, owner, nil), http.StatusGone, "case-erased")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/messages", owner, nil), http.StatusGone, "case-erased")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id, s.Token(t, "erase-neighbour"), nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/erasure", s.Token(t, "erase-neighbour"), nil), http.StatusNotFound, "not-found")
	again := s.Call(t, "DELETE", "/v1/cases/"+id, owner, nil)
	if again.Status != http.StatusOK || again.Body["erased_at"] != r.Body["erased_at"] {
		t.Errorf("erasing again: %d %s; want the first receipt %s", again.Status, again.Raw, r.Raw)
	}
	if got := s.Call(t, "GET", "/v1/cases/"+id+"/erasure", owner, nil); got.Status != http.StatusOK || got.Body["erased_at"] != r.Body["erased_at"] {
		t.Errorf("the receipt: %d %s", got.Status, got.Raw)
	}

	s.CheckErased(t, id, canary)
	// Nothing of the case is recreated: a retried create whose Idempotency-Key names it
	// is gone too.
	key := "erase-" + uuid.NewString()
	keyed := s.Call(t, "POST", "/v1/cases", owner, map[string]any{"description": "A case to erase and retry"}, "Idempotency-Key", key)
	if keyed.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", keyed.Status, keyed.Raw)
	}
	keyedID := keyed.Body["case_id"].(string)
	// Past its tiering, which an erasure's closing waits for (a 202 otherwise, under load).
	s.WaitForStatus(t, owner, keyedID, schemas.StatusOpen, schemas.PhaseActive)
	if r := s.Call(t, "DELETE", "/v1/cases/"+keyedID, owner, nil); r.Status != http.StatusOK {
		t.Fatalf("erase: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases", owner, map[string]any{"description": "A case to erase and retry"}, "Idempotency-Key", key),
		http.StatusGone, "case-erased")
	// The codec server leaves its payloads sealed, even for the operator's staff.
	operator := s.Mint(t, auth.Identity{Subject: "ops", Roles: []string{schemas.RoleSupport}, Operator: true})
	if open, _ := decoded(t, s.Call(t, "POST", "/codec/decode", operator, sealedInput), canary); len(open) == 0 || open[0] {
		t.Errorf("the codec server opened an erased case's payload: %v", open)
	}
}

// TestLegalHold: an admin in scope puts a legal hold on a case, audited; the hold
// keeps the case from its owner's erasure with a 409 that says why, until it is
// lifted. Clients and other organizations' admins cannot hold a case.
func TestLegalHold(t *testing.T) {
	t.Parallel()
	owner := s.Token(t, "held-client")
	id := s.CreateCase(t, owner, "A dispute over an inheritance")
	admin := s.Mint(t, auth.Identity{Subject: "firm-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	const reason = "litigation pending before the Tribunalul București"
	hold := map[string]any{"reason": reason}

	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", owner, hold), http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold",
		s.Mint(t, auth.Identity{Subject: "boss", Org: "elsewhere", Roles: []string{schemas.RoleAdmin}}), hold), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", admin, map[string]any{"reason": "  "}), http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", admin, map[string]any{"reason": strings.Repeat("x", 2001)}), http.StatusUnprocessableEntity, "invalid-input")

	if r := s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", admin, hold); r.Status != http.StatusOK {
		t.Fatalf("hold: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id, owner, nil); r.Body["legal_hold"] == nil {
		t.Errorf("the case shows no hold: %s", r.Raw)
	}
	r := s.Call(t, "DELETE", "/v1/cases/"+id, owner, nil)
	stack.WantProblem(t, r, http.StatusConflict, "legal-hold")
	if detail, _ := r.Body["detail"].(string); !strings.Contains(detail, reason) || strings.Contains(detail, "firm-admin") {
		t.Errorf("the client's refusal = %q; want why, and not which admin", detail)
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id, owner, nil); strings.Contains(string(r.Raw), "firm-admin") {
		t.Errorf("the case shows its client which admin held it: %s", r.Raw)
	}
	// The hold freezes the case's content (issue 36, finding 18): the client adds no
	// party and no document, and an admin's run of a tool that writes is refused
	// before it is audited (the model's own writes are activities.TestAttackLegalHoldFreezes).
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/parties", owner, map[string]any{"first_name": "Ion", "last_name": "Popescu"}),
		http.StatusConflict, "legal-hold")
	stack.WantProblem(t, s.Upload(t, owner, id, "note.txt", []byte("a note on the inheritance")), http.StatusConflict, "legal-hold")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/admin/tools/execute", admin, map[string]any{"tool": schemas.ToolUpdateCaseDetails, "case_id": id,
		"args": map[string]any{"updates": map[string]any{"summary.current": "rewritten"}}}), http.StatusConflict, "legal-hold")
	r = s.Call(t, "DELETE", "/v1/cases/"+id, admin, nil)
	stack.WantProblem(t, r, http.StatusConflict, "legal-hold")
	if detail, _ := r.Body["detail"].(string); !strings.Contains(detail, "firm-admin") {
		t.Errorf("the admin's refusal does not say who held the case: %q", detail)
	}
	if _, err := s.Store.GetCase(t.Context(), id); err != nil {
		t.Fatalf("the held case is gone: %v", err)
	}
	if _, err := s.TC.DescribeWorkflowExecution(t.Context(), schemas.EraseWorkflowID(id), ""); err == nil {
		t.Error("an erasure started for a held case")
	}

	// The operator's staff replace the firm's hold; the firm's admin may not lift
	// theirs, they may.
	operator := s.Mint(t, auth.Identity{Subject: "ops-admin", Roles: []string{schemas.RoleAdmin}, Operator: true})
	if r := s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", operator, map[string]any{"reason": "an authority's request"}); r.Status != http.StatusOK {
		t.Fatalf("the operator's hold: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "DELETE", "/v1/admin/cases/"+id+"/hold", admin, nil), http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", admin, hold), http.StatusForbidden, "forbidden")
	if r := s.Call(t, "DELETE", "/v1/admin/cases/"+id+"/hold", operator, nil); r.Status != http.StatusOK {
		t.Fatalf("lift: %d %s", r.Status, r.Raw)
	}
	// The admin erases it: audited, as the hold and its lifting were.
	if r := s.Call(t, "DELETE", "/v1/cases/"+id, admin, nil); r.Status != http.StatusOK || r.Body["requested_by"] != "firm-admin" {
		t.Fatalf("the admin's erasure: %d %s", r.Status, r.Raw)
	}
	audit := s.Call(t, "GET", "/v1/admin/audit?case="+id, admin, nil)
	var actions []string
	for _, e := range audit.Body["entries"].([]any) {
		actions = append(actions, e.(map[string]any)["action"].(string))
	}
	if got := strings.Join(actions, ","); got != "case.erase,case.hold.lift,case.hold.set,case.hold.set" {
		t.Errorf("audited %s, want the holds, the lifting and the erasure, newest first", got)
	}
	if strings.Contains(string(audit.Raw), "Tribunalul") {
		t.Error("the audit log keeps the hold's reason, which outlives the case there")
	}
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", admin, hold), http.StatusNotFound, "not-found")
}

// TestRetention: the Retention workflow erases an organization's closed cases past its
// retention period (the stack's RetentionOrg: a nanosecond), and leaves its open
// cases and held ones; the schedule that runs it is created by the first worker and
// brought up to date by the next.
func TestRetention(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	if _, err := s.Store.PutSubscription(ctx, store.Subscription{ID: store.SubscriptionID("", stack.RetentionOrg), Plan: "e2e",
		Credits: map[string]int{"1": 10, "2": 10, "3": 10}}); err != nil {
		t.Fatal(err)
	}
	tok := s.Mint(t, auth.Identity{Subject: "keeper", Org: stack.RetentionOrg, Roles: []string{schemas.RoleUser}})
	admin := s.Mint(t, auth.Identity{Subject: "keeper-admin", Org: stack.RetentionOrg, Roles: []string{schemas.RoleAdmin}})
	closed, held, open := s.CreateCase(t, tok, "An old lease dispute"), s.CreateCase(t, tok, "A held lease dispute"), s.CreateCase(t, tok, "An open dispute")
	for _, id := range []string{closed, held} {
		// Past its tiering, which a close waits for (a 202 otherwise, under load).
		s.WaitForStatus(t, tok, id, schemas.StatusOpen, schemas.PhaseActive)
		if r := s.Call(t, "POST", "/v1/cases/"+id+"/close", tok, nil); r.Status != http.StatusOK {
			t.Fatalf("close: %d %s", r.Status, r.Raw)
		}
	}
	if r := s.Call(t, "PUT", "/v1/admin/cases/"+held+"/hold", admin, map[string]any{"reason": "an authority asked us to keep it"}); r.Status != http.StatusOK {
		t.Fatalf("hold: %d %s", r.Status, r.Raw)
	}

	run, err := s.TC.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "retention-test-" + uuid.NewString(), TaskQueue: stack.TaskQueue},
		schemas.RetentionWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := run.Get(ctx, &n); err != nil || n != 1 {
		t.Fatalf("Retention = %d, %v; want the one closed case erased", n, err)
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+closed, tok, nil), http.StatusGone, "case-erased")
	if r := s.Call(t, "GET", "/v1/cases/"+closed+"/erasure", tok, nil); r.Body["reason"] != schemas.ErasureRetention || r.Body["requested_by"] != schemas.RetentionBy {
		t.Errorf("the receipt: %s", r.Raw)
	}
	for _, id := range []string{held, open} {
		if r := s.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Status != http.StatusOK {
			t.Errorf("case %s: %d %s; want it kept", id, r.Status, r.Raw)
		}
	}
	s.CheckErased(t, closed, "An old lease dispute")
	s.RecordRuns(t, "retention", run.GetID(), "retention")
	s.RecordRuns(t, "retention", schemas.EraseWorkflowID(closed), "erase")

	// A worker of another queue created it; this one brings it up to date.
	for _, queue := range []string{"an-old-queue", stack.TaskQueue} {
		if err := worker.EnsureRetentionSchedule(ctx, s.TC, queue); err != nil {
			t.Fatal(err)
		}
	}
	sched := s.TC.ScheduleClient().GetHandle(ctx, schemas.RetentionScheduleID)
	t.Cleanup(func() { _ = sched.Delete(context.Background()) })
	d, err := sched.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if iv := d.Schedule.Spec.Intervals; len(iv) != 1 || iv[0].Every != worker.RetentionEvery {
		t.Errorf("the schedule runs every %+v, want %v", iv, worker.RetentionEvery)
	}
	if a, ok := d.Schedule.Action.(*client.ScheduleWorkflowAction); !ok || a.Workflow != schemas.RetentionWorkflow || a.TaskQueue != stack.TaskQueue {
		t.Errorf("the schedule's action = %+v", d.Schedule.Action)
	}
}

// TestEraseAnswersWhileItRuns: an erasure that takes longer than the API waits answers
// 202 with where its receipt is; the receipt says erasing, then erased.
func TestEraseAnswersWhileItRuns(t *testing.T) {
	t.Parallel()
	impatient := s.Serve(t, func(_ *config.Config, d *api.Deps) { d.EraseWait = time.Millisecond })
	owner := s.Token(t, "impatient-client")
	id := impatient.CreateCase(t, owner, "A case erased without waiting")
	r := impatient.Call(t, "DELETE", "/v1/cases/"+id, owner, nil)
	if r.Status != http.StatusAccepted || r.Body["status"] != "erasing" || r.Header.Get("Location") != "/v1/cases/"+id+"/erasure" {
		t.Fatalf("erase: %d %v %s", r.Status, r.Header, r.Raw)
	}
	if err := s.TC.GetWorkflow(t.Context(), schemas.EraseWorkflowID(id), "").Get(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if r := impatient.Call(t, "GET", "/v1/cases/"+id+"/erasure", owner, nil); r.Status != http.StatusOK || r.Body["status"] != "erased" {
		t.Errorf("the receipt: %d %s", r.Status, r.Raw)
	}
}
