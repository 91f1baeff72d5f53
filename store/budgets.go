package store

import (
	"context"
	"time"
)

// TokenUse is what one model call cost, charged to its case and its tenant on a UTC
// day ("2006-01-02").
type TokenUse struct {
	// ID names the call (its activity attempt): recording the same ID twice counts it
	// once.
	ID     string    `json:"id"`
	Tenant string    `json:"tenant"` // a schemas.TenantKey
	CaseID string    `json:"case_id"`
	Day    string    `json:"day"`
	Tokens int64     `json:"tokens"`
	At     time.Time `json:"at"`
}

// TokensUsed is what a case and its tenant used on one day.
type TokensUsed struct {
	Case   int64 `json:"case"`
	Tenant int64 `json:"tenant"`
}

// Budget is a tenant's own model-token budget, set by an admin in place of the
// deployment's defaults. A zero limit keeps the default.
type Budget struct {
	Tenant string `json:"tenant"`
	// TokensPerDay bounds what all the tenant's cases use in a UTC day,
	// CaseTokensPerDay what each of its cases uses.
	TokensPerDay     int64     `json:"tokens_per_day,omitempty"`
	CaseTokensPerDay int64     `json:"case_tokens_per_day,omitempty"`
	SetBy            string    `json:"set_by"`
	UpdatedAt        time.Time `json:"updated_at"`
}

// Budgets keeps what model calls cost and the budgets admins set.
type Budgets interface {
	// RecordTokens stores u unless a use with its ID exists, and counts it for its case
	// and its tenant; recording a use again finishes counting it, and never counts it
	// twice when the first attempt ended.
	RecordTokens(ctx context.Context, u TokenUse) error
	// TokensUsed is what a case and its tenant used on a day; for no case (caseID
	// empty), both are the tenant's.
	TokensUsed(ctx context.Context, tenant, caseID, day string) (TokensUsed, error)
	// DeploymentTokens is what every tenant together used on a day: the operator's
	// figure (system_stats).
	DeploymentTokens(ctx context.Context, day string) (int64, error)
	// GetBudget returns a tenant's budget, or ErrNotFound if none was set.
	GetBudget(ctx context.Context, tenant string) (Budget, error)
	// PutBudget sets a tenant's budget, replacing any earlier one.
	PutBudget(ctx context.Context, b Budget) error
}
