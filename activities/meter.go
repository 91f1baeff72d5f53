package activities

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Meter charges each model call to the daily budgets of its case and its tenant, and
// refuses calls once either budget is used up. The case is the one whose workflow runs
// the activity (schemas.CaseOfWorkflow); a call outside a case is charged to the
// tenant For names, counted apart under schemas.QueryUsage (no case budget applies to
// it), and is not metered without one. A nil Meter meters nothing.
type Meter struct {
	Cases   store.Cases
	Budgets store.Budgets
	// Parties are read to pseudonymize every call's messages (see view); without
	// them only the personal data found by its form is marked.
	Parties store.Parties
	// Limits are the deployment's default budgets; a tenant's store.Budget replaces
	// them for its cases.
	Limits schemas.TokenLimits
	// Now is the clock that names the day; nil means time.Now.
	Now func() time.Time
	// tenant is charged for calls outside a case (see For).
	tenant string
}

// For returns the meter that charges calls outside a case to tenant (a
// schemas.TenantKey; "" for none): a POST /v1/query's.
func (m *Meter) For(tenant string) *Meter {
	if m == nil || tenant == "" {
		return m
	}
	cp := *m
	cp.tenant = tenant
	return &cp
}

// account is what a metered call is charged to.
type account struct {
	caseID, tenant string
}

// Complete is client.Complete, or client.Stream when text is not nil, pseudonymized
// and metered. The model reads msgs pseudonymized with the case's parties (view);
// text gets the streamed reply re-identified for the client; the response is the
// model's, placeholders and all, for the workflow and the next call. It refuses the
// call with a non-retryable ErrBudgetExhausted (details schemas.BudgetExhausted) when
// the budget is used up, and charges what the call used. A call that starts under
// budget finishes, so a budget may be passed by its last call.
func (m *Meter) Complete(ctx context.Context, client *llm.Client, msgs []schemas.ChatMessage, tools []llm.Tool, text func(string)) (schemas.ModelResponse, error) {
	msgs, parties, err := m.view(ctx, msgs)
	if err != nil {
		return schemas.ModelResponse{}, err
	}
	call := func() (schemas.ModelResponse, error) {
		if text == nil {
			return client.Complete(ctx, msgs, tools)
		}
		piece, flush := reidentified(text, parties)
		resp, err := client.Stream(ctx, msgs, tools, piece)
		flush()
		return resp, err
	}
	acct, ok, err := m.account(ctx)
	if err != nil || !ok {
		if err != nil {
			return schemas.ModelResponse{}, err
		}
		return call()
	}
	if err := m.check(ctx, acct); err != nil {
		return schemas.ModelResponse{}, err
	}
	resp, err := call()
	if err != nil {
		return resp, err
	}
	if err := m.charge(ctx, acct, tokens(resp, msgs)); err != nil {
		// Failing the call would retry it and pay the endpoint twice for an answer
		// already paid for: this call goes uncharged instead.
		activity.GetLogger(ctx).Error("Model call not charged to its budget", "CaseID", acct.caseID, "Error", err)
	}
	return resp, nil
}

// account finds the case of the activity's workflow and its tenant, or for a call
// outside a case the tenant For named; ok is false when there is neither, and for
// code run outside an activity and WithRun.
func (m *Meter) account(ctx context.Context) (account, bool, error) {
	r, ok := runOf(ctx)
	if m == nil || !ok {
		return account{}, false, nil
	}
	caseID := schemas.CaseOfWorkflow(r.workflowID)
	if caseID == "" {
		// Counted apart, under QueryUsage, for the API's allowance before payment.
		return account{caseID: schemas.QueryUsage, tenant: m.tenant}, m.tenant != "", nil
	}
	org, subject, err := m.Cases.CaseOwner(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		activity.GetLogger(ctx).Warn("Model call of a case the store does not hold: not metered", "CaseID", caseID)
		return account{}, false, nil
	}
	if err != nil {
		return account{}, false, fmt.Errorf("find the case to charge: %w", err)
	}
	return account{caseID: caseID, tenant: schemas.TenantKey(org, subject)}, true, nil
}

// check refuses the call when the case or its tenant has used its budget for today.
func (m *Meter) check(ctx context.Context, a account) error {
	limits := m.Limits
	b, err := m.Budgets.GetBudget(ctx, a.tenant)
	switch {
	case err == nil:
		limits.TokensPerDay = cmp.Or(b.TokensPerDay, limits.TokensPerDay)
		limits.CaseTokensPerDay = cmp.Or(b.CaseTokensPerDay, limits.CaseTokensPerDay)
	case !errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("read the tenant's budget: %w", err)
	}
	if limits.TokensPerDay == 0 && limits.CaseTokensPerDay == 0 {
		return nil
	}
	now := m.now()
	used, err := m.Budgets.TokensUsed(ctx, a.tenant, a.caseID, Day(now))
	if err != nil {
		return fmt.Errorf("read the day's token use: %w", err)
	}
	out := schemas.BudgetExhausted{ResumeAt: schemas.NextUTCDay(now)}
	switch {
	case a.caseID != schemas.QueryUsage && limits.CaseTokensPerDay > 0 && used.Case >= limits.CaseTokensPerDay:
		out.Scope, out.Limit, out.Used = schemas.BudgetCase, limits.CaseTokensPerDay, used.Case
	case limits.TokensPerDay > 0 && used.Tenant >= limits.TokensPerDay:
		out.Scope, out.Limit, out.Used = schemas.BudgetTenant, limits.TokensPerDay, used.Tenant
	default:
		return nil
	}
	return temporal.NewApplicationErrorWithOptions(
		fmt.Sprintf("the %s's model-token budget for today (%d) is used up", out.Scope, out.Limit),
		schemas.ErrBudgetExhausted, temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{out}})
}

// chargeTries bounds how often charge records a use whose recording failed, and
// chargeBackoff is the wait before the first retry, doubled each time.
const (
	chargeTries   = 3
	chargeBackoff = 100 * time.Millisecond
)

// charge records n tokens against the case and its tenant, once per activity attempt
// (an attempt's call is a call the endpoint answered, and charged for). A recording
// that fails is made again under the same ID, which finishes counting it, at most
// chargeTries times in all.
func (m *Meter) charge(ctx context.Context, a account, n int64) error {
	now := m.now()
	r, _ := runOf(ctx) // the activity's own attempt, not a tool call's op (withOp)
	use := store.TokenUse{
		ID:     fmt.Sprintf("%s#%d", r.id(), r.attempt),
		Tenant: a.tenant, CaseID: a.caseID, Day: Day(now), Tokens: n, At: now,
	}
	wait := chargeBackoff
	var err error
	for try := 1; ; try++ {
		if err = m.Budgets.RecordTokens(ctx, use); err == nil {
			return nil
		}
		if try == chargeTries {
			return fmt.Errorf("charge the model call: %w", err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("charge the model call: %w", err)
		case <-time.After(wait):
		}
		wait *= 2
	}
}

func (m *Meter) now() time.Time {
	if m.Now != nil {
		return m.Now().UTC()
	}
	return time.Now().UTC()
}

// Day names t's UTC day, as budgets count it.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// countTokens adds a model call's tokens to the worker's schemas.MetricModelTokens, by
// role: every answered call, charged to a budget or not.
func countTokens(ctx context.Context, role schemas.ModelRole, n int64) {
	if activity.IsActivity(ctx) {
		activity.GetMetricsHandler(ctx).WithTags(map[string]string{"role": string(role)}).Counter(schemas.MetricModelTokens).Inc(n)
	}
}

// tokens is what a call cost: the total the endpoint reported, else its prompt and
// completion tokens, else, from an endpoint that reports no usage, an estimate of a
// token per four bytes of the conversation and the reply.
func tokens(resp schemas.ModelResponse, msgs []schemas.ChatMessage) int64 {
	if u := resp.Usage; u.Total > 0 || u.Prompt+u.Completion > 0 {
		return max(u.Total, u.Prompt+u.Completion)
	}
	n := len(resp.Content)
	for _, m := range msgs {
		n += len(m.Content)
	}
	for _, c := range resp.ToolCalls {
		n += len(c.Name) + len(c.Arguments)
	}
	return int64(n/4 + 1)
}
