package api_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestBudgetExhaustedWaitsUntilRaised runs a case of an organization whose case budget
// is one token, on the real worker and the offline model (which reports its usage):
// tiering spends it, so the first turn stops at its first model call with the budget's
// reply and the case waits in waiting_budget, on support's list; a further message
// answers 402 budget-exhausted with when the case resumes. An organization's admin may
// not raise the budget; the operator's admin does (audited), the case resumes at once,
// and messages go through again.
func TestBudgetExhaustedWaitsUntilRaised(t *testing.T) {
	t.Parallel()
	org := fmt.Sprintf("thrifty-%d", time.Now().UnixNano())
	tenant := "org:" + org
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", org), Plan: "e2e",
		Credits: map[string]int{"1": 10, "2": 10, "3": 10}}); err != nil {
		t.Fatal(err)
	}
	admin := s.Mint(t, auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin, schemas.RoleSupport}, Operator: true})
	orgAdmin := s.Mint(t, auth.Identity{Subject: "boss", Org: org, Roles: []string{schemas.RoleAdmin}})
	tok := s.Mint(t, auth.Identity{Subject: "ana", Org: org, Roles: []string{schemas.RoleUser}})
	if r := s.Call(t, "PUT", "/v1/admin/budgets/"+tenant, admin, map[string]any{"case_tokens_per_day": 1}); r.Status != http.StatusOK {
		t.Fatalf("set budget: %d %s", r.Status, r.Raw)
	}
	id := s.CreateCase(t, tok, "My landlord keeps the deposit of my flat in Cluj")
	s.WaitForStatus(t, tok, id, schemas.StatusOpen, schemas.PhaseActive)

	r := s.Send(t, tok, id, "What can I do about the deposit?")
	if r.Body["status"] != schemas.StatusWaitingBudget || r.Body["budget"] == nil ||
		!strings.HasPrefix(r.Body["reply"].(string), "This case has used its model budget for today (1 tokens)") {
		t.Fatalf("turn out of budget: %s", r.Raw)
	}
	refused := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "Hello?"})
	stack.WantProblem(t, refused, http.StatusPaymentRequired, "budget-exhausted")
	midnight := schemas.NextUTCDay(s.Now()) // by the stack's clock, a day ahead: see stack.Clock
	if at, err := time.Parse(time.RFC3339, fmt.Sprint(refused.Body["resumes_at"])); err != nil || !at.Equal(midnight) {
		t.Errorf("resumes_at = %v, want %v", refused.Body["resumes_at"], midnight)
	}
	if after, err := strconv.Atoi(refused.Header.Get("Retry-After")); err != nil || after < 1 || time.Duration(after)*time.Second > time.Until(midnight)+2*time.Second {
		t.Errorf("Retry-After = %q, want the seconds until %v", refused.Header.Get("Retry-After"), midnight)
	}
	if !s.SupportListHas(t, admin, schemas.StatusWaitingBudget, id) {
		t.Fatalf("support's %s list lacks the case", schemas.StatusWaitingBudget)
	}
	view := s.Call(t, "GET", "/v1/admin/budgets/"+tenant, orgAdmin, nil)
	if used, _ := view.Body["used_today"].(float64); view.Status != http.StatusOK || used < 2 || view.Body["case_tokens_per_day"] != 1.0 {
		t.Errorf("the organization's admin reads its budget: %d %s; want the use of tiering and the refused turn's nothing", view.Status, view.Raw)
	}

	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/budgets/"+tenant, orgAdmin, map[string]any{"case_tokens_per_day": 1 << 40}),
		http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/budgets/"+tenant, admin, map[string]any{"case_tokens_per_day": -1}),
		http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/budgets/team:"+org, admin, map[string]any{}),
		http.StatusUnprocessableEntity, "invalid-input")
	raised := s.Call(t, "PUT", "/v1/admin/budgets/"+tenant, admin, map[string]any{"case_tokens_per_day": 5_000_000})
	if raised.Status != http.StatusOK || raised.Body["resumed"] != 1.0 || raised.Body["case_tokens_per_day"] != 5e6 {
		t.Fatalf("raise budget: %d %s; want one case resumed", raised.Status, raised.Raw)
	}
	s.WaitForStatus(t, tok, id, schemas.StatusOpen, schemas.PhaseActive)
	if r := s.Send(t, tok, id, "What can I do about the deposit?"); r.Body["status"] != schemas.StatusOpen || r.Body["budget"] != nil {
		t.Errorf("turn after the raise: %s", r.Raw)
	}
	audit := s.Call(t, "GET", "/v1/admin/audit?org="+org, admin, nil)
	if n := strings.Count(string(audit.Raw), `"action":"budget.put"`); n != 2 {
		t.Errorf("audit has %d budget.put entries, want the 2 changes: %s", n, audit.Raw)
	}
	records, err := s.Store.ListRecords(t.Context(), id, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, rec := range records {
		said = append(said, rec.Content)
	}
	if !strings.Contains(strings.Join(said, "\n"), "An administrator (root) raised the model budget") {
		t.Errorf("transcript lacks the raise's notice: %q", said)
	}
	s.RecordHistories(t, "budget", id)
}
