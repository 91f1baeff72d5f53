package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
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

// TestAttackCaseDetailsLimits (issue 36, finding 11): an admin's run of
// update_case_details past case_details' limits, an entry too large or details that
// would grow too large, answers 413 too-large, saying which, before it runs.
func TestAttackCaseDetailsLimits(t *testing.T) {
	t.Parallel()
	owner := s.Token(t, "details-client")
	id := s.CreateCase(t, owner, "Vecinul a construit pe terenul meu")
	admin := s.Mint(t, auth.Identity{Subject: "details-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	note := func(size int) map[string]any {
		return map[string]any{"tool": "update_case_details", "case_id": id,
			"args": map[string]any{"updates": map[string]any{"internal_notes": []any{strings.Repeat("n", size)}}}}
	}
	r := s.Call(t, "POST", "/v1/admin/tools/execute", admin, note(40<<10))
	stack.WantProblem(t, r, http.StatusRequestEntityTooLarge, "too-large")
	if d, _ := r.Body["detail"].(string); !strings.Contains(d, "internal_notes gets a value of") {
		t.Errorf("detail %q", d)
	}
	if r := runTool(t, admin, note(20<<10)); r.Body["status"] != schemas.ToolOK {
		t.Fatalf("a note of 20 KB: %s", r.Raw)
	}
	var fill []any
	for range store.MaxDetailsBytes / (30 << 10) {
		fill = append(fill, strings.Repeat("f", 30<<10))
	}
	if _, err := s.Store.UpdateDetails(t.Context(), id, 0, "", map[string]any{"facts": fill}); err != nil {
		t.Fatal(err)
	}
	r = s.Call(t, "POST", "/v1/admin/tools/execute", admin, note(20<<10))
	stack.WantProblem(t, r, http.StatusRequestEntityTooLarge, "too-large")
	if d, _ := r.Body["detail"].(string); !strings.Contains(d, "case_details would have") {
		t.Errorf("detail %q", d)
	}
}
