package schemas

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
)

// TokenUsage is what one model call cost, as the endpoint reported it.
type TokenUsage struct {
	Prompt     int64 `json:"prompt_tokens"`
	Completion int64 `json:"completion_tokens"`
	Total      int64 `json:"total_tokens"`
}

// TokenLimits are model-token budgets per UTC day: what one case may use, and what all
// the cases of one tenant (an organization, or a user without one) may use. 0 means no
// limit.
type TokenLimits struct {
	CaseTokensPerDay int64 `json:"case_tokens_per_day"`
	TokensPerDay     int64 `json:"tokens_per_day"`
}

// Budget scopes: what ran out, the case's own daily budget or its tenant's.
const (
	BudgetCase   = "case"
	BudgetTenant = "tenant"
)

// BudgetExhausted says that a case's model-token budget for the day is used up: which
// budget (BudgetCase or BudgetTenant), what it allows and has used, and when it renews
// (the next UTC midnight). It is the details of an ErrBudgetExhausted error, and a
// turn's or tiering's result when that error stopped it.
type BudgetExhausted struct {
	Scope    string    `json:"scope"`
	Limit    int64     `json:"limit"`
	Used     int64     `json:"used"`
	ResumeAt time.Time `json:"resume_at"`
}

// BudgetPause is a case waiting, in StatusWaitingBudget, for its budget to renew or
// be raised. Tiering, when set, is what tiering was classifying when the budget ran
// out: the case classifies it again once it resumes.
type BudgetPause struct {
	BudgetExhausted
	Tiering string `json:"tiering,omitempty"`
}

// BudgetRaised is the budget-raised update: an admin changed the budget of Tenant (a
// TenantKey), and its cases waiting on their budget resume. At is the time the case
// accepted it, set by the case.
type BudgetRaised struct {
	Tenant string    `json:"tenant"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// BudgetExhaustedOf returns what an ErrBudgetExhausted error in err's chain says:
// which budget ran out (a budget of unknown scope is the case's) and when it renews.
func BudgetExhaustedOf(err error) (BudgetExhausted, bool) {
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != ErrBudgetExhausted {
		return BudgetExhausted{}, false
	}
	var b BudgetExhausted
	if appErr.HasDetails() && appErr.Details(&b) != nil {
		b = BudgetExhausted{}
	}
	if b.Scope != BudgetTenant {
		b.Scope = BudgetCase
	}
	return b, true
}

// TenantKey names a tenant: "org:<id>" for an organization, "user:<subject>" for a
// user without one. Subscriptions and budgets are kept under it.
func TenantKey(org, subject string) string {
	if org != "" {
		return "org:" + org
	}
	return "user:" + subject
}

// NextUTCDay is the UTC midnight after t, when daily budgets renew.
func NextUTCDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}
