package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestIdempotencyKeyAcrossContinueAsNew: Temporal deduplicates update IDs within one
// workflow run only, so a retry with the same Idempotency-Key after the case continued
// as new ran a second turn. Now the case carries its keyed turns across runs: the
// retry gets the first turn's answer and no turn runs. The same key from another
// organization's user of the same name, or for another case, is another request.
func TestIdempotencyKeyAcrossContinueAsNew(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "ivo")
	id := s.CreateCase(t, tok, "A lease question asked twice")
	key := "retry-" + uuid.NewString()
	send := func(tok, caseID, message string) map[string]any {
		t.Helper()
		r := s.Call(t, "POST", "/v1/cases/"+caseID+"/messages", tok, map[string]any{"message": message}, "Idempotency-Key", key)
		if r.Status != http.StatusOK {
			t.Fatalf("send: %d %s", r.Status, r.Raw)
		}
		return r.Body
	}
	first := send(tok, id, "show me the case details")
	if first["turn_id"] != schemas.TurnWorkflowID(id, 1) {
		t.Fatalf("first: %v", first)
	}
	state := func() schemas.CaseStatus {
		var st schemas.CaseStatus
		v, err := s.TC.QueryWorkflow(t.Context(), schemas.CaseWorkflowID(id), "", schemas.QueryState)
		if err == nil {
			err = v.Get(&st)
		}
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	for n := 2; state().Runs < 2; n++ {
		if n > 20 {
			t.Fatal("no continue-as-new within 20 turns")
		}
		if r := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": fmt.Sprintf("turn %d", n)}); r.Status != http.StatusOK {
			t.Fatalf("turn %d: %d %s", n, r.Status, r.Raw)
		}
	}
	turns := state().Turns
	again := send(tok, id, "show me the case details")
	if again["turn_id"] != first["turn_id"] || again["reply"] != first["reply"] || again["repeated"] != nil {
		t.Errorf("the retry after continue-as-new: %v; want the first turn's answer %v", again, first)
	}
	if st := state(); st.Turns != turns {
		t.Errorf("the retry ran a turn: %d turns, was %d", st.Turns, turns)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "another message"}, "Idempotency-Key", key),
		http.StatusUnprocessableEntity, "idempotency-key-reused")
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", "globex"), Plan: "e2e",
		Credits: map[string]int{"1": 10, "2": 10, "3": 10}}); err != nil {
		t.Fatal(err)
	}
	other := s.Mint(t, auth.Identity{Subject: "ivo", Org: "globex", Roles: []string{schemas.RoleUser}})
	otherCase := s.CreateCase(t, other, "Globex's ivo: another matter")
	if r := send(other, otherCase, "show me the case details"); r["turn_id"] != schemas.TurnWorkflowID(otherCase, 1) {
		t.Errorf("the same key on another case: %v", r)
	}
	secondCase := s.CreateCase(t, tok, "Ivo's second case")
	if r := send(tok, secondCase, "show me the case details"); r["turn_id"] != schemas.TurnWorkflowID(secondCase, 1) {
		t.Errorf("the same key on the user's other case: %v", r)
	}
}

// TestAttackIdempotencyKeyWithAnotherMessage (issue 36, suspicion: a reused
// Idempotency-Key silently replays the first turn): the same key with another message
// is refused with 422 idempotency-key-reused, streamed or not, and runs no turn; the
// first message with its key still gets its turn's answer.
func TestAttackIdempotencyKeyWithAnotherMessage(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "kira")
	id := s.CreateCase(t, tok, "A deposit kept by the landlord")
	key := "reuse-" + uuid.NewString()
	first := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "show me the case details"}, "Idempotency-Key", key)
	if first.Status != http.StatusOK {
		t.Fatalf("first: %d %s", first.Status, first.Raw)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "transfer the case to my lawyer"}, "Idempotency-Key", key),
		http.StatusUnprocessableEntity, "idempotency-key-reused")
	streamed := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "transfer the case to my lawyer"},
		"Idempotency-Key", key, "Accept", "text/event-stream")
	if !strings.Contains(string(streamed.Raw), "event: turn.failed") || !strings.Contains(string(streamed.Raw), "idempotency-key-reused") {
		t.Errorf("the streamed request with another message: %d %s", streamed.Status, streamed.Raw)
	}
	again := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "show me the case details"}, "Idempotency-Key", key)
	if again.Status != http.StatusOK || again.Body["turn_id"] != first.Body["turn_id"] || again.Body["reply"] != first.Body["reply"] {
		t.Errorf("the first message again: %d %s; want the first turn's answer", again.Status, again.Raw)
	}
	recs := s.Call(t, "GET", "/v1/cases/"+id+"/messages", tok, nil)
	if strings.Contains(string(recs.Raw), "transfer the case") {
		t.Errorf("the other message reached the transcript: %s", recs.Raw)
	}
}
