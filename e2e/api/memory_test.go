package api_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// closedCase creates a case with one party, sends the client's message in a turn and
// closes the case, which proposes memory facts from it.
func closedCase(t *testing.T, tok, title, first, last, message string) string {
	t.Helper()
	id := s.CreateCase(t, tok, title)
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, map[string]any{"first_name": first, "last_name": last}); r.Status != http.StatusCreated {
		t.Fatalf("add party: %d %s", r.Status, r.Raw)
	}
	s.Send(t, tok, id, message)
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/close", tok, nil); r.Status != http.StatusOK {
		t.Fatalf("close: %d %s", r.Status, r.Raw)
	}
	return id
}

// proposedFacts waits, a bounded time, until the case's ProposeMemory workflow has
// run to its end (it stores facts one by one), and returns the caller's facts proposed
// from the case.
func proposedFacts(t *testing.T, tok, caseID string) []map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for {
		err := s.TC.GetWorkflow(ctx, schemas.MemoryWorkflowID(caseID), "").Get(ctx, nil)
		var notFound *serviceerror.NotFound
		if err == nil {
			break
		}
		if !errors.As(err, &notFound) { // not started yet: the case starts it as it closes
			t.Fatalf("the case's memory proposal: %v", err)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no memory proposal of case %s started within 30 s", caseID)
		case <-time.After(100 * time.Millisecond):
		}
	}
	r := s.Call(t, "GET", "/v1/me/memory/facts", tok, nil)
	var out []map[string]any
	facts, _ := r.Body["facts"].([]any)
	for _, f := range facts {
		if f := f.(map[string]any); f["case_id"] == caseID {
			out = append(out, f)
		}
	}
	return out
}

// TestMemoryFacts: closing a case proposes facts about its client, written in clear
// (the model read the party as a placeholder); the client keeps, edits and deletes
// them; another user finds none of them; a kept fact reaches the next case's model
// pseudonymized; erasing the user's memory removes them all.
func TestMemoryFacts(t *testing.T) {
	t.Parallel()
	tok, other := s.Token(t, "mira-memory"), s.Token(t, "otto-memory")
	id := closedCase(t, tok, "My landlord keeps my deposit", "Horia", "Vântu", "Hello. I live in a flat I rent from Horia Vântu. I run a bakery in Cluj.")
	facts := proposedFacts(t, tok, id)
	if len(facts) != 2 || facts[0]["text"] != "The client said: «I live in a flat I rent from Horia Vântu.»" ||
		facts[1]["text"] != "The client said: «I run a bakery in Cluj.»" || facts[0]["status"] != store.FactProposed {
		t.Fatalf("proposed facts = %v; want the client's two sentences about themselves, in clear", facts)
	}
	flat, bakery := facts[0]["id"].(string), facts[1]["id"].(string)
	s.RecordHistories(t, "memory", id)

	// Another user reaches none of them.
	if r := s.Call(t, "GET", "/v1/me/memory/facts", other, nil); len(r.Body["facts"].([]any)) != 0 {
		t.Errorf("another user's list: %s", r.Raw)
	}
	for _, c := range []struct{ method, path string }{{"POST", "/approve"}, {"POST", "/reject"}, {"PATCH", ""}, {"DELETE", ""}} {
		stack.WantProblem(t, s.Call(t, c.method, "/v1/me/memory/facts/"+flat+c.path, other, map[string]any{"text": "mine now"}),
			http.StatusNotFound, "not-found")
	}

	// Approve (twice: the same answer), edit, reject, delete.
	for range 2 {
		if r := s.Call(t, "POST", "/v1/me/memory/facts/"+flat+"/approve", tok, nil); r.Status != http.StatusOK || r.Body["status"] != store.FactKept {
			t.Fatalf("approve: %d %s", r.Status, r.Raw)
		}
	}
	stack.WantProblem(t, s.Call(t, "PATCH", "/v1/me/memory/facts/"+flat, tok, map[string]any{"text": "  "}), http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "PATCH", "/v1/me/memory/facts/"+flat, tok, map[string]any{"text": strings.Repeat("x", store.MaxFactChars+1)}),
		http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "PATCH", "/v1/me/memory/facts/"+flat, tok, map[string]any{}), http.StatusUnprocessableEntity, "invalid-input")
	// A fact is one line: a line break cannot open a section of the prompt it joins.
	r := s.Call(t, "PATCH", "/v1/me/memory/facts/"+flat, tok, map[string]any{"text": "Rents a flat in Cluj\n\n## Rules\n from Horia Vântu."})
	if r.Status != http.StatusOK || r.Body["text"] != "Rents a flat in Cluj ## Rules from Horia Vântu." {
		t.Fatalf("edit with line breaks: %d %s", r.Status, r.Raw)
	}
	r = s.Call(t, "PATCH", "/v1/me/memory/facts/"+flat, tok, map[string]any{"text": "Rents a flat in Cluj from Horia Vântu."})
	if r.Status != http.StatusOK || r.Body["text"] != "Rents a flat in Cluj from Horia Vântu." || r.Body["status"] != store.FactKept {
		t.Fatalf("edit: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/me/memory/facts/"+flat+"/reject", tok, nil), http.StatusConflict, "conflict")
	if r := s.Call(t, "POST", "/v1/me/memory/facts/"+bakery+"/reject", tok, nil); r.Status != http.StatusNoContent {
		t.Fatalf("reject: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/me/memory/facts/"+bakery+"/reject", tok, nil), http.StatusNotFound, "not-found")
	if r := s.Call(t, "GET", "/v1/me/memory/facts", tok, nil); len(r.Body["facts"].([]any)) != 1 {
		t.Errorf("after the reject: %s; want the kept fact alone", r.Raw)
	}

	// The next case's model reads the kept fact, the party a placeholder.
	if r := s.Call(t, "PUT", "/v1/me/memory", tok, map[string]any{"memory": "Prefers short answers."}); r.Status != http.StatusOK {
		t.Fatalf("put memory: %d %s", r.Status, r.Raw)
	}
	next := s.CreateCase(t, tok, "A question about my bakery's lease")
	operator := s.Mint(t, auth.Identity{Subject: "memory-admin", Roles: []string{schemas.RoleAdmin}, Operator: true})
	r = s.Call(t, "GET", "/v1/admin/cases/"+next+"/context", operator, nil)
	if raw := string(r.Raw); r.Status != http.StatusOK || strings.Contains(raw, "Vântu") ||
		!strings.Contains(raw, `## Memory\n- Rents a flat in Cluj from {{mem1.party0.fullName}}.\nPrefers short answers.`) {
		t.Errorf("the next case's context: %d %.2000s", r.Status, r.Raw)
	}

	// Erasing the user's memory removes every fact and the note.
	r = s.Call(t, "DELETE", "/v1/me/memory", tok, nil)
	if r.Status != http.StatusOK || r.Body["facts"] != 1.0 || r.Body["note"] != true {
		t.Fatalf("erase memory: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/memory/facts", tok, nil); len(r.Body["facts"].([]any)) != 0 {
		t.Errorf("facts after erasure: %s", r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/memory", tok, nil); r.Body["memory"] != "" {
		t.Errorf("note after erasure: %s", r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "DELETE", "/v1/me/memory/facts/"+flat, tok, nil), http.StatusNotFound, "not-found")
}

// TestErasedCaseTakesItsProposals: erasing a closed case deletes the facts proposed
// from it that its client had not kept, and its receipt counts them; a fact the client
// kept stays, with the case's parties written out of it.
func TestErasedCaseTakesItsProposals(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "erin-memory")
	id := closedCase(t, tok, "My employer has not paid me", "Dorin", "Brutaru", "I work as a baker for Dorin Brutaru. My employer owes me two salaries.")
	facts := proposedFacts(t, tok, id)
	if len(facts) != 2 || !strings.Contains(facts[0]["text"].(string), "Dorin Brutaru") {
		t.Fatalf("proposed facts = %v, want 2, the first naming the employer", facts)
	}
	if r := s.Call(t, "POST", "/v1/me/memory/facts/"+facts[0]["id"].(string)+"/approve", tok, nil); r.Status != http.StatusOK {
		t.Fatalf("approve: %d %s", r.Status, r.Raw)
	}
	r := s.Call(t, "DELETE", "/v1/cases/"+id, tok, nil)
	erased, _ := r.Body["erased"].(map[string]any)
	if r.Status != http.StatusOK || erased["memory_proposals"] != 1.0 {
		t.Fatalf("erase: %d %s", r.Status, r.Raw)
	}
	r = s.Call(t, "GET", "/v1/me/memory/facts", tok, nil)
	left, _ := r.Body["facts"].([]any)
	if len(left) != 1 || strings.Contains(string(r.Raw), "Dorin") || strings.Contains(string(r.Raw), "Brutaru") ||
		!strings.Contains(left[0].(map[string]any)["text"].(string), "[…]") {
		t.Errorf("facts after the case's erasure: %s; want the kept one, its party written out", r.Raw)
	}
}
