package workflows

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// budgetStart is when the budget tests' cases start: the budget renews nine hours on.
var budgetStart = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

func outOfBudget(scope string) schemas.BudgetExhausted {
	return schemas.BudgetExhausted{Scope: scope, Limit: 1000, Used: 1200, ResumeAt: schemas.NextUTCDay(budgetStart)}
}

func budgetError(b schemas.BudgetExhausted) error {
	return temporal.NewApplicationErrorWithOptions("budget used up", schemas.ErrBudgetExhausted,
		temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{b}})
}

func caseState(t *testing.T, env *testsuite.TestWorkflowEnvironment) schemas.CaseStatus {
	t.Helper()
	var st schemas.CaseStatus
	v, err := env.QueryWorkflow(schemas.QueryState)
	if err == nil {
		err = v.Get(&st)
	}
	if err != nil {
		t.Error(err)
	}
	return st
}

// TestTieringOutOfBudgetWaitsForTheNextDay: tiering's budget ran out, so the case waits
// in waiting_budget, refuses messages saying when it resumes, and at midnight (UTC)
// resumes by itself and classifies again.
func TestTieringOutOfBudgetWaitsForTheNextDay(t *testing.T) {
	said := &[]string{}
	env := newCaseEnvWith(t, caseEnvOptions{said: said, tierings: []schemas.TieringResult{
		{Budget: new(outOfBudget(schemas.BudgetTenant))}, {Tier: 2, Justification: "a lease dispute"}}})
	env.SetStartTime(budgetStart)
	var waiting, resumed schemas.CaseStatus
	var refused *update
	env.RegisterDelayedCallback(func() {
		waiting = caseState(t, env)
		refused = sendMessage(env, "u1", "are you there?")
	}, time.Hour)
	env.RegisterDelayedCallback(func() { resumed = caseState(t, env); env.CancelWorkflow() }, 10*time.Hour)
	env.ExecuteWorkflow(Case, caseIn)

	if waiting.Status != schemas.StatusWaitingBudget || waiting.WaitingOn != schemas.WaitingOnBudget || waiting.Phase != schemas.PhaseTiering ||
		waiting.Budget == nil || !waiting.Budget.ResumeAt.Equal(schemas.NextUTCDay(budgetStart)) {
		t.Fatalf("state while out of budget = %+v", waiting)
	}
	var appErr *temporal.ApplicationError
	var details schemas.BudgetExhausted
	if refused == nil || !errors.As(refused.rejected, &appErr) || appErr.Type() != schemas.ErrBudgetExhausted ||
		appErr.Details(&details) != nil || !details.ResumeAt.Equal(schemas.NextUTCDay(budgetStart)) {
		t.Fatalf("message while out of budget: %+v; want rejected as %s with when it resumes", refused, schemas.ErrBudgetExhausted)
	}
	if resumed.Status != schemas.StatusOpen || resumed.Phase != schemas.PhaseActive || resumed.Tier != 2 || resumed.Budget != nil || resumed.WaitingOn != "" {
		t.Errorf("state after midnight = %+v, want an open, active tier-2 case", resumed)
	}
	want := []string{"Your subscription has used its model budget for today (1000 tokens)", "2026-11-23 00:00 UTC",
		caseWordings["en"].renewed, "Case tier: 2. a lease dispute"}
	if got := strings.Join(*said, "\n"); !containsAll(got, want) {
		t.Errorf("notices = %q, want them to say %q", *said, want)
	}
}

// TestTurnOutOfBudgetWaitsUntilRaised: a turn that ran out of budget leaves the case in
// waiting_budget; a budget-raised signal for another tenant changes nothing, one for
// the case's tenant resumes it at once, and messages go through again.
func TestTurnOutOfBudgetWaitsUntilRaised(t *testing.T) {
	said := &[]string{}
	env := newCaseEnvWith(t, caseEnvOptions{said: said})
	env.SetStartTime(budgetStart)
	turns := 0
	env.OnWorkflow(ChatTurn, mock.Anything, mock.Anything).Return(
		func(_ workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
			turns++
			if turns == 1 {
				return schemas.TurnResult{TurnID: in.TurnID, Reply: "partial", Budget: new(outOfBudget(schemas.BudgetCase))}, nil
			}
			return schemas.TurnResult{TurnID: in.TurnID, Reply: "re: " + in.Message}, nil
		})
	var first, second *update
	var afterOther, afterRaise schemas.CaseStatus
	env.RegisterDelayedCallback(func() { first = sendMessage(env, "u1", "draft the claim") }, time.Second)
	var other, forged, raised *event
	env.RegisterDelayedCallback(func() {
		other = caseEvent(env, schemas.UpdateBudgetRaised, "b1", schemas.BudgetRaised{Tenant: "org:elsewhere", By: "root"})
		forged = caseEvent(env, schemas.UpdateBudgetRaised, "forged-b", schemas.BudgetRaised{Tenant: "user:alice", By: "root"})
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		afterOther = caseState(t, env)
		raised = caseEvent(env, schemas.UpdateBudgetRaised, "b2", schemas.BudgetRaised{Tenant: "user:alice", By: "root"})
	}, 2*time.Minute)
	env.RegisterDelayedCallback(func() {
		afterRaise = caseState(t, env)
		second = sendMessage(env, "u2", "go on")
	}, 4*time.Minute)
	env.RegisterDelayedCallback(env.CancelWorkflow, 5*time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	if first == nil || first.err != nil || first.result.Status != schemas.StatusWaitingBudget || first.result.Budget == nil {
		t.Fatalf("turn out of budget = %+v (error %v), want its result with status %s", first, first.err, schemas.StatusWaitingBudget)
	}
	if other.accepted || !hasErrorType(other.rejected, schemas.ErrNotApplicable) {
		t.Errorf("another tenant's raise: %+v, want rejected as %s", other, schemas.ErrNotApplicable)
	}
	if forged.err != nil || forged.outcome.Refused == "" || forged.outcome.Status != schemas.StatusWaitingBudget {
		t.Errorf("a raise with no audited record: %+v, want refused, still waiting", forged)
	}
	if raised.err != nil || !raised.outcome.Handled || raised.outcome.Status != schemas.StatusOpen {
		t.Errorf("the tenant's raise: %+v, want handled, open", raised)
	}
	if afterOther.Status != schemas.StatusWaitingBudget {
		t.Errorf("status after another tenant's raise = %q, want still %s", afterOther.Status, schemas.StatusWaitingBudget)
	}
	if afterRaise.Status != schemas.StatusOpen || afterRaise.Budget != nil {
		t.Errorf("state after the raise = %+v, want open", afterRaise)
	}
	if second == nil || second.err != nil || second.rejected != nil || second.result.Reply != "re: go on" {
		t.Errorf("message after the raise = %+v", second)
	}
	if got := strings.Join(*said, "\n"); !strings.Contains(got, "An administrator (root) raised the model budget") {
		t.Errorf("notices = %q, want the raise announced", *said)
	}
}

// TestChatTurnEndsWhenTheBudgetRunsOut: the model call refused for its budget ends the
// turn with what it had and the budget's reply, instead of failing it.
func TestChatTurnEndsWhenTheBudgetRunsOut(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{callTool(schemas.ToolGetCaseDetails, `{}`)}}
	calls := 0
	refusing := func(ctx context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
		if calls++; calls == 2 {
			return schemas.ModelResponse{}, budgetError(outOfBudget(schemas.BudgetCase))
		}
		return model.call(ctx, req)
	}
	env := newTurnEnv(t)
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(refusing)
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
	okDetails(env)
	env.ExecuteWorkflow(ChatTurn, turnIn)
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Budget == nil || res.Budget.Scope != schemas.BudgetCase || !res.Budget.ResumeAt.Equal(schemas.NextUTCDay(budgetStart)) {
		t.Fatalf("budget = %+v, want the case's, renewing at midnight", res.Budget)
	}
	if calls != 2 || len(res.ToolsUsed) != 1 || res.ToolsUsed[0].Status != schemas.ToolOK {
		t.Errorf("after %d model calls, tools used = %+v; want the first step's tool kept", calls, res.ToolsUsed)
	}
	if !strings.HasPrefix(res.Reply, "This case has used its model budget for today (1000 tokens)") {
		t.Errorf("reply = %q", res.Reply)
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestTieringEndsWhenTheBudgetRunsOut: tiering answers a budget refusal with
// TieringResult.Budget, without a correction call.
func TestTieringEndsWhenTheBudgetRunsOut(t *testing.T) {
	env := newTurnEnv(t)
	calls := 0
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
		func(context.Context, schemas.ModelRequest) (schemas.ModelResponse, error) {
			calls++
			return schemas.ModelResponse{}, budgetError(outOfBudget(schemas.BudgetTenant))
		})
	env.ExecuteWorkflow(Tiering, schemas.TieringInput{CaseID: "c1", Language: "en", Description: "A lease"})
	var res schemas.TieringResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Budget == nil || res.Budget.Scope != schemas.BudgetTenant || res.Tier != 0 || calls != 1 {
		t.Errorf("tiering = %+v after %d calls, want the tenant's budget after one", res, calls)
	}
}
