package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/e2e/stack"
)

// TestAttackPartyLimit (issue 36, finding 2): a case takes api.MaxParties parties and
// refuses the next one with a clear problem, so that no client makes every read of
// its documents look for thousands of names.
func TestAttackPartyLimit(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "petra")
	r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Un vecin îmi inundă apartamentul", "language": "ro"})
	id := r.Body["case_id"].(string)
	for i := range api.MaxParties {
		party := map[string]any{"first_name": fmt.Sprintf("Ion%d", i), "last_name": "Popescu", "aliases": []string{"vecinul", "cel de sus"}}
		if r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, party); r.Status != http.StatusCreated {
			t.Fatalf("party %d: %d %s", i, r.Status, r.Raw)
		}
	}
	r = s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, map[string]any{"company_name": "Una În Plus SRL"})
	stack.WantProblem(t, r, http.StatusConflict, "conflict")
	if want := fmt.Sprintf("the case has %d parties, the most a case may have", api.MaxParties); r.Body["detail"] != want {
		t.Errorf("detail %q, want %q", r.Body["detail"], want)
	}
}
