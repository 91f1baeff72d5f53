package workflows

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

// event is an update carrying a case event: whether it was accepted or rejected, and
// its outcome.
type event struct {
	accepted bool
	rejected error
	outcome  schemas.CaseOutcome
	err      error
}

// caseEvent sends the update name, with ID id, carrying arg, and records its fate.
func caseEvent(env *testsuite.TestWorkflowEnvironment, name, id string, arg any) *event {
	e := &event{}
	env.UpdateWorkflow(name, id, &testsuite.TestUpdateCallback{
		OnAccept: func() { e.accepted = true },
		OnReject: func(err error) { e.rejected = err },
		OnComplete: func(res any, err error) {
			if o, ok := res.(schemas.CaseOutcome); ok {
				e.outcome = o
			}
			e.err = err
		},
	}, arg)
	return e
}

// A case with no credit waits for payment and refuses messages; the first payment
// activates it and settles, and a second confirmation changes nothing.
func TestCasePaymentActivates(t *testing.T) {
	env := newCaseEnvQuota(t, false)
	env.OnActivity(paymentActs.RecordPayment, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RecordPayment) (schemas.PaymentConfirmed, error) {
			if in.Tier != 1 {
				t.Errorf("payment recorded against tier %d, want the case's, 1", in.Tier)
			}
			if in.Payment.ID == "forged" {
				return schemas.PaymentConfirmed{}, temporal.NewNonRetryableApplicationError("no checkout PAY-0", schemas.ErrEventRefused, nil)
			}
			return in.Payment, nil
		}).Twice()
	first := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	second := first.Add(time.Second)
	var refused *update
	var forged, settled, again, unknown *event
	env.RegisterDelayedCallback(func() { refused = sendMessage(env, "u1", "hello") }, time.Second)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalPaymentConfirmed, schemas.PaymentConfirmed{ID: "forged", Reference: "PAY-0", Amount: 1, By: "mallory", At: first})
		forged = caseEvent(env, schemas.UpdateSettlePayment, "s0", "forged")
	}, 3*time.Second/2)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalPaymentConfirmed, schemas.PaymentConfirmed{ID: "evt_1", Reference: "PAY-1", By: "alice", At: first})
		settled = caseEvent(env, schemas.UpdateSettlePayment, "s1", "evt_1")
	}, 2*time.Second)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalPaymentConfirmed, schemas.PaymentConfirmed{ID: "evt_2", Reference: "PAY-2", By: "alice", At: second})
		again = caseEvent(env, schemas.UpdateSettlePayment, "s2", "evt_2")
	}, 3*time.Second)
	env.RegisterDelayedCallback(func() { unknown = caseEvent(env, schemas.UpdateSettlePayment, "s3", "evt_never_sent") }, 4*time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, 2*schemas.SettleWait)
	env.ExecuteWorkflow(Case, caseIn)

	if refused.accepted || !hasErrorType(refused.rejected, schemas.ErrPaymentRequired) {
		t.Errorf("message while awaiting payment: accepted=%v rejected=%v", refused.accepted, refused.rejected)
	}
	if o := forged.outcome; forged.err != nil || !o.Handled || o.Refused == "" || o.Phase != schemas.PhaseAwaitingPayment || o.Payment != nil {
		t.Errorf("settled after a forged payment: %+v, want refused, awaiting payment", forged)
	}
	if o := settled.outcome; settled.err != nil || !o.Handled || o.Phase != schemas.PhaseActive || o.Payment == nil || o.Payment.Reference != "PAY-1" {
		t.Errorf("settled after the payment: %+v", settled)
	}
	if o := again.outcome; again.err != nil || !o.Handled || o.Payment == nil || o.Payment.Reference != "PAY-1" || o.Payment.ID != "evt_1" {
		t.Errorf("settled after the second confirmation: %+v", again)
	}
	// A payment the case never received is not handled: the wait ends at SettleWait.
	if unknown.err != nil || unknown.outcome.Handled || unknown.outcome.ID != "evt_never_sent" {
		t.Errorf("settled a payment never sent: %+v", unknown)
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
	var recorded []schemas.RecordEscalation
	env.OnActivity(casesActs.RecordEscalation, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RecordEscalation) error {
			recorded = append(recorded, in)
			return nil
		})
	in := caseIn
	in.UserWait = time.Hour
	var turn *update
	var waiting, paused schemas.CaseStatus
	var early, resumed, badResume, closed, forgedResume, forgedClose *event
	query := func(into *schemas.CaseStatus) func() {
		return func() {
			v, err := env.QueryWorkflow(schemas.QueryState)
			if err == nil {
				_ = v.Get(into)
			}
		}
	}
	env.RegisterDelayedCallback(func() { turn = sendMessage(env, "u1", "art. 2043 c.c.") }, time.Second)
	env.RegisterDelayedCallback(func() {
		early = caseEvent(env, schemas.UpdateResume, "r0", schemas.Resume{Action: schemas.ResumeContinue, Note: "too soon", By: "sam"})
	}, time.Second/2)
	env.RegisterDelayedCallback(query(&waiting), 30*time.Minute)
	env.RegisterDelayedCallback(query(&paused), 2*time.Hour)
	env.RegisterDelayedCallback(func() {
		badResume = caseEvent(env, schemas.UpdateResume, "r1", schemas.Resume{Action: "reboot", Note: "checked", By: "sam"})
		forgedResume = caseEvent(env, schemas.UpdateResume, "forged-r", schemas.Resume{Action: schemas.ResumeClose, Note: "sent to Temporal", By: "sam"})
		resumed = caseEvent(env, schemas.UpdateResume, "r2", schemas.Resume{Action: schemas.ResumeContinue, Note: "checked", By: "sam"})
	}, 3*time.Hour)
	env.RegisterDelayedCallback(func() {
		forgedClose = caseEvent(env, schemas.UpdateCloseCase, "forged-c", schemas.CloseCase{By: "alice"})
		closed = caseEvent(env, schemas.UpdateCloseCase, "c1", schemas.CloseCase{By: "alice"})
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
	// The ticket rung is the case's own, recorded in case_details.escalation.
	if len(recorded) != 1 || len(recorded[0].Attempts) != 1 || recorded[0].CaseID != "c1" {
		t.Errorf("escalation records = %+v, want the ticket's", recorded)
	} else if a := recorded[0].Attempts[0]; a.Rung != schemas.RungTicket || a.TicketID != "case:c1:ticket:1" ||
		a.Tool != schemas.ToolNormattivaSearch || a.Error != "503" || a.N != 1 || a.At.IsZero() {
		t.Errorf("escalation record = %+v", a)
	}
	if early.accepted || !hasErrorType(early.rejected, schemas.ErrNotApplicable) {
		t.Errorf("resume of an open case: %+v, want rejected as %s", early, schemas.ErrNotApplicable)
	}
	if badResume.accepted || !hasErrorType(badResume.rejected, schemas.ErrInvalidUpdate) {
		t.Errorf("resume with an unknown action: %+v, want rejected as %s", badResume, schemas.ErrInvalidUpdate)
	}
	// Updates sent with no audited record behind them change nothing.
	if o := forgedResume.outcome; forgedResume.err != nil || !o.Handled || o.Refused == "" || o.Status != schemas.StatusPausedSupport {
		t.Errorf("a forged resumption: %+v, want refused, still paused", forgedResume)
	}
	if o := forgedClose.outcome; forgedClose.err != nil || !o.Handled || o.Refused == "" || o.Status != schemas.StatusOpen {
		t.Errorf("a forged closing: %+v, want refused, still open", forgedClose)
	}
	if o := resumed.outcome; resumed.err != nil || !o.Handled || o.ID != "r2" || o.Status != schemas.StatusOpen || o.At.IsZero() {
		t.Errorf("after support's continue: %+v", resumed)
	}
	if o := closed.outcome; closed.err != nil || !o.Handled || o.Status != schemas.StatusClosed {
		t.Errorf("after closing: %+v", closed)
	}
	var res schemas.CaseResult
	if err := env.GetWorkflowResult(&res); err != nil || res.State.Status != schemas.StatusClosed ||
		res.State.LastResume == nil || res.State.LastResume.By != "sam" || res.State.Escalation != nil {
		t.Errorf("workflow result %+v, %v", res.State, err)
	}
	env.AssertExpectations(t)
}
