package activities

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestMeterChargesAndRefuses runs metered calls as activities of a case's workflows,
// against the store: a call charges its case and tenant for the day (an endpoint that
// reports no usage, a token per four bytes); once the case's budget is used the next
// call is refused, non-retryable, saying when it renews; another case of the tenant
// then meets the tenant's budget; a call outside any case is not metered.
func TestMeterChargesAndRefuses(t *testing.T) {
	org := "meter-" + uuid.NewString()[:8]
	now := time.Date(2026, 11, 22, 18, 30, 0, 0, time.UTC)
	first, second := newMeteredCase(t, org), newMeteredCase(t, org)
	if err := st.PutBudget(t.Context(), store.Budget{Tenant: schemas.TenantKey(org, ""), CaseTokensPerDay: 100, TokensPerDay: 150}); err != nil {
		t.Fatal(err)
	}
	model, got := recordingModel(t)
	meter := &Meter{Cases: st, Budgets: st, Limits: schemas.TokenLimits{CaseTokensPerDay: 1 << 40, TokensPerDay: 1 << 40}, Now: func() time.Time { return now }}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: strings.Repeat("lease ", 100)}} // 600 bytes: 150 tokens
	call := func(workflowID string) error {
		return runAsActivity(workflowID, func(ctx context.Context) error {
			_, err := meter.Complete(ctx, model, msgs, nil, nil)
			return err
		})
	}
	if err := call(schemas.TurnWorkflowID(first, 1)); err != nil {
		t.Fatalf("first call: %v", err)
	}
	used, err := st.TokensUsed(t.Context(), schemas.TenantKey(org, ""), first, "2026-11-22")
	if err != nil || used != (store.TokensUsed{Case: 151, Tenant: 151}) {
		t.Fatalf("after one call, used = %+v, %v; want 151 tokens (600 bytes and the reply's 2) on the case and its tenant", used, err)
	}
	wantRefusal := func(err error, scope string) {
		t.Helper()
		var appErr *temporal.ApplicationError
		var b schemas.BudgetExhausted
		if !errors.As(err, &appErr) || appErr.Type() != schemas.ErrBudgetExhausted || !appErr.NonRetryable() || appErr.Details(&b) != nil {
			t.Fatalf("call = %v, want a non-retryable %s", err, schemas.ErrBudgetExhausted)
		}
		want := schemas.BudgetExhausted{Scope: scope, Limit: map[string]int64{schemas.BudgetCase: 100, schemas.BudgetTenant: 150}[scope],
			Used: 151, ResumeAt: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)}
		if b != want {
			t.Errorf("refusal = %+v, want %+v", b, want)
		}
	}
	wantRefusal(call(schemas.TurnWorkflowID(first, 2)), schemas.BudgetCase)
	wantRefusal(call(schemas.TieringWorkflowID(second, 1)), schemas.BudgetTenant)
	if len(*got) != 1 {
		t.Errorf("the endpoint got %d calls, want only the first", len(*got))
	}
	if err := call("not-a-case"); err != nil || len(*got) != 2 {
		t.Errorf("a call outside any case: %v after %d calls; want it made and not metered", err, len(*got))
	}
}

// TestMeterChargesAQueryToItsTenant: a call outside any case that For names a tenant
// is charged to the tenant, and refused once the tenant's budget is used; a case's
// budget does not apply to it.
func TestMeterChargesAQueryToItsTenant(t *testing.T) {
	org := "query-" + uuid.NewString()[:8]
	tenant := schemas.TenantKey(org, "")
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	if err := st.PutBudget(t.Context(), store.Budget{Tenant: tenant, CaseTokensPerDay: 10, TokensPerDay: 200}); err != nil {
		t.Fatal(err)
	}
	model, got := recordingModel(t)
	meter := (&Meter{Cases: st, Budgets: st, Now: func() time.Time { return now }}).For(tenant)
	msgs := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: strings.Repeat("lease ", 100)}} // 150 tokens
	call := func() error {
		return runAsActivity(schemas.QueryWorkflowID("org:x", uuid.NewString()), func(ctx context.Context) error {
			_, err := meter.Complete(ctx, model, msgs, nil, nil)
			return err
		})
	}
	if err := call(); err != nil {
		t.Fatalf("first query: %v", err)
	}
	used, err := st.TokensUsed(t.Context(), tenant, "", "2026-11-22")
	if err != nil || used.Tenant != 151 {
		t.Fatalf("after one query, used = %+v, %v; want 151 on the tenant", used, err)
	}
	if err := call(); err != nil {
		t.Fatalf("second query, under the tenant's 200: %v", err)
	}
	var appErr *temporal.ApplicationError
	if err := call(); !errors.As(err, &appErr) || appErr.Type() != schemas.ErrBudgetExhausted {
		t.Errorf("third query, past the tenant's budget: %v", err)
	}
	if len(*got) != 2 {
		t.Errorf("the endpoint got %d calls, want 2", len(*got))
	}
}

func newMeteredCase(t *testing.T, org string) string {
	t.Helper()
	c, err := st.CreateCase(t.Context(), store.Case{ID: uuid.NewString(), UserID: "ana", OrgID: org, Phase: schemas.PhaseActive, Status: schemas.StatusOpen})
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// failingBudgets fails the first fails recordings of token use, as a store that is
// briefly unreachable would; the second failure comes after the write reached it.
type failingBudgets struct {
	store.Budgets
	fails, calls int
}

func (f *failingBudgets) RecordTokens(ctx context.Context, u store.TokenUse) error {
	f.calls++
	switch {
	case f.calls > f.fails:
		return f.Budgets.RecordTokens(ctx, u)
	case f.calls == 2:
		if err := f.Budgets.RecordTokens(ctx, u); err != nil {
			return err
		}
		return errors.New("connection reset after the write")
	}
	return errors.New("connection refused")
}

// TestMeterChargesThroughAFailedRecording: a recording that fails is made again under
// the same ID, and the call is counted once.
func TestMeterChargesThroughAFailedRecording(t *testing.T) {
	org := "meter-" + uuid.NewString()[:8]
	id := newMeteredCase(t, org)
	model, _ := recordingModel(t)
	meter := &Meter{Cases: st, Budgets: &failingBudgets{Budgets: st, fails: 2}, Limits: schemas.TokenLimits{CaseTokensPerDay: 1 << 40, TokensPerDay: 1 << 40}}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: strings.Repeat("lease ", 100)}}
	if err := runAsActivity(schemas.TurnWorkflowID(id, 1), func(ctx context.Context) error {
		_, err := meter.Complete(ctx, model, msgs, nil, nil)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	used, err := st.TokensUsed(t.Context(), schemas.TenantKey(org, ""), id, Day(time.Now()))
	if err != nil || used != (store.TokensUsed{Case: 151, Tenant: 151}) {
		t.Errorf("used = %+v, %v; want the call's 151 tokens counted once", used, err)
	}
}

// TestMeterChargesEachRunOfAToolCall: a tool call run again after its worker was lost
// keeps its op for its writes (withOp), but each run's model calls, answered and paid
// for, are charged.
func TestMeterChargesEachRunOfAToolCall(t *testing.T) {
	org := "meter-" + uuid.NewString()[:8]
	id := newMeteredCase(t, org)
	model, _ := recordingModel(t)
	meter := &Meter{Cases: st, Budgets: st, Limits: schemas.TokenLimits{CaseTokensPerDay: 1 << 40, TokensPerDay: 1 << 40}}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: strings.Repeat("lease ", 100)}}
	for _, activityID := range []string{"5", "9"} {
		ctx := withOp(WithRun(t.Context(), schemas.TurnWorkflowID(id, 1), "run", activityID), "the-call's-op")
		if _, err := meter.Complete(ctx, model, msgs, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	used, err := st.TokensUsed(t.Context(), schemas.TenantKey(org, ""), id, Day(time.Now()))
	if err != nil || used != (store.TokensUsed{Case: 302, Tenant: 302}) {
		t.Errorf("used = %+v, %v; want both runs' 151 tokens counted", used, err)
	}
}
