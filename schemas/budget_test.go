package schemas

import (
	"fmt"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
)

func TestCaseOfWorkflow(t *testing.T) {
	for id, want := range map[string]string{
		"case:c1":                    "c1",
		"case:c1:turn:3":             "c1",
		"case:c1:turn:3:ticket":      "c1",
		"case:c1:draft:Cerere:rev-2": "c1",
		"not-a-case":                 "",
		"cases:c1":                   "",
	} {
		if got := CaseOfWorkflow(id); got != want {
			t.Errorf("CaseOfWorkflow(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestCaseOfBlobKey(t *testing.T) {
	for key, want := range map[string]string{
		DraftPath("c1", "Cerere", 2):           "c1",
		ToolResultKey("c2", 3, 1, "legal_sql"): "c2",
		CaseBlobPrefix("c3") + "x":             "c3",
		"cases/c4":                             "",
		"other/c1/drafts/x.pdf":                "",
		"cases//drafts/x.pdf":                  "",
	} {
		if got := CaseOfBlobKey(key); got != want {
			t.Errorf("CaseOfBlobKey(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestNextUTCDay(t *testing.T) {
	bucharest := time.FixedZone("EET", 2*3600)
	for _, c := range []struct{ at, want time.Time }{
		{time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)},
		{time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)},
		{time.Date(2026, 11, 23, 1, 0, 0, 0, bucharest), time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)},
	} {
		if got := NextUTCDay(c.at); !got.Equal(c.want) {
			t.Errorf("NextUTCDay(%v) = %v, want %v", c.at, got, c.want)
		}
	}
}

func TestBudgetExhaustedOf(t *testing.T) {
	b := BudgetExhausted{Scope: BudgetTenant, Limit: 10, Used: 12, ResumeAt: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)}
	err := fmt.Errorf("model call 2: %w", temporal.NewApplicationErrorWithOptions("used up", ErrBudgetExhausted,
		temporal.ApplicationErrorOptions{Details: []any{b}}))
	if got, ok := BudgetExhaustedOf(err); !ok || got != b {
		t.Errorf("BudgetExhaustedOf = %+v, %v; want %+v", got, ok, b)
	}
	if got, ok := BudgetExhaustedOf(temporal.NewApplicationError("used up", ErrBudgetExhausted)); !ok || got.Scope != BudgetCase {
		t.Errorf("without details = %+v, %v; want the case's budget", got, ok)
	}
	if _, ok := BudgetExhaustedOf(temporal.NewApplicationError("no", ErrCasePaused)); ok {
		t.Error("another error type read as a budget refusal")
	}
}
