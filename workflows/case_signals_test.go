package workflows

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

// settle sends the settle update for the signal stamped at and returns its state.
func settle(env *testsuite.TestWorkflowEnvironment, id string, at time.Time) *schemas.CaseState {
	st := &schemas.CaseState{}
	env.UpdateWorkflow(schemas.UpdateSettle, id, &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(error) {},
		OnComplete: func(res any, err error) {
			if s, ok := res.(schemas.CaseState); ok && err == nil {
				*st = s
			}
		},
	}, at)
	return st
}

// A case with no credit waits for payment and refuses messages; the first payment
// activates it and settles, and a second confirmation changes nothing.
func TestCasePaymentActivates(t *testing.T) {
	env := newCaseEnvQuota(t, false)
	env.OnActivity(paymentActs.RecordPayment, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RecordPayment) (schemas.PaymentConfirmed, error) {
			return in.Payment, nil
		}).Once()
	first := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	second := first.Add(time.Second)
	var refused *update
	var settled, again *schemas.CaseState
	env.RegisterDelayedCallback(func() { refused = sendMessage(env, "u1", "hello") }, time.Second)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalPaymentConfirmed, schemas.PaymentConfirmed{Reference: "PAY-1", By: "alice", At: first})
		settled = settle(env, "s1", first)
	}, 2*time.Second)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalPaymentConfirmed, schemas.PaymentConfirmed{Reference: "PAY-2", By: "alice", At: second})
		again = settle(env, "s2", second)
	}, 3*time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	if refused.accepted || !hasErrorType(refused.rejected, schemas.ErrPaymentRequired) {
		t.Errorf("message while awaiting payment: accepted=%v rejected=%v", refused.accepted, refused.rejected)
	}
	if settled.Phase != schemas.PhaseActive || settled.Payment == nil || settled.Payment.Reference != "PAY-1" {
		t.Errorf("settled after the payment: %+v", settled)
	}
	if again.Payment == nil || again.Payment.Reference != "PAY-1" || len(again.Settled) != 2 {
		t.Errorf("settled after the second confirmation: %+v", again)
	}
	env.AssertExpectations(t)
}

// A question of the ladder that goes unanswered in time opens a ticket; support's
// "continue" reopens the case, and the client's close ends the workflow.
func TestCaseUnansweredQuestionOpensTicket(t *testing.T) {
	env := newCaseEnv(t)
	env.RegisterWorkflow(SupportTicket)
	env.RegisterActivity(&activities.Transcript{})
	env.RegisterActivity(&activities.Payments{})
	env.RegisterActivity(&activities.Tickets{})
	env.OnWorkflow(ChatTurn, mock.Anything, mock.Anything).Return(
		func(_ workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
			return schemas.TurnResult{TurnID: in.TurnID, Escalation: &schemas.Escalation{N: in.EscalationN, Tool: schemas.ToolNormattivaSearch,
				Error: "503", Rung: schemas.RungAskUser, Question: "Try again?", Message: in.Message}}, nil
		})
	var ticket schemas.SupportTicketInput
	env.OnWorkflow(SupportTicket, mock.Anything, mock.Anything).Return(
		func(_ workflow.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
			ticket = in
			return schemas.TicketResult{Status: schemas.ResultSuccess, TicketID: in.TicketID}, nil
		}).Once()
	env.OnActivity(ticketActs.RecordResume, mock.Anything, mock.Anything).Return(nil).Once()
	in := caseIn
	in.UserWait = time.Hour
	var turn *update
	var waiting, paused schemas.CaseState
	var resumed, closed *schemas.CaseState
	query := func(into *schemas.CaseState) func() {
		return func() {
			v, err := env.QueryWorkflow(schemas.QueryState)
			if err == nil {
				_ = v.Get(into)
			}
		}
	}
	resumeAt, closeAt := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)
	env.RegisterDelayedCallback(func() { turn = sendMessage(env, "u1", "art. 2043 c.c.") }, time.Second)
	env.RegisterDelayedCallback(query(&waiting), 30*time.Minute)
	env.RegisterDelayedCallback(query(&paused), 2*time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalResume, schemas.Resume{Action: schemas.ResumeContinue, Note: "checked", By: "sam", At: resumeAt})
		resumed = settle(env, "s1", resumeAt)
	}, 3*time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalCloseCase, schemas.CloseCase{By: "alice", At: closeAt})
		closed = settle(env, "s2", closeAt)
	}, 4*time.Hour)
	env.ExecuteWorkflow(Case, in)

	if turn.err != nil || turn.result.Status != schemas.StatusWaitingUser {
		t.Fatalf("escalated turn: %+v", turn)
	}
	if waiting.Status != schemas.StatusWaitingUser || waiting.WaitingOn != schemas.WaitingOnUser || waiting.Escalation == nil {
		t.Errorf("before the timer: %+v", waiting)
	}
	if paused.Status != schemas.StatusPausedSupport || paused.Escalation.Rung != schemas.RungTicket || len(paused.Tickets) != 1 ||
		ticket.TicketID != "case:c1:ticket:1" || ticket.Args.AgentStateSnapshot["question"] != "Try again?" {
		t.Errorf("after the timer: %+v; ticket %+v", paused, ticket)
	}
	if resumed.Status != schemas.StatusOpen || resumed.Escalation != nil || resumed.LastResume == nil || resumed.LastResume.By != "sam" {
		t.Errorf("after support's continue: %+v", resumed)
	}
	if closed.Status != schemas.StatusClosed {
		t.Errorf("after closing: %+v", closed)
	}
	var res schemas.CaseResult
	if err := env.GetWorkflowResult(&res); err != nil || res.State.Status != schemas.StatusClosed {
		t.Errorf("workflow result %+v, %v", res.State, err)
	}
	env.AssertExpectations(t)
}
