package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// afterTurn moves the case as the turn's escalation says: waiting for the client's
// answer, with a timer; paused on the ticket the turn opened; or, when the answer's
// turn went through, open again.
func (w *caseWorkflow) afterTurn(ctx workflow.Context, in schemas.ChatTurnInput, e *schemas.Escalation) error {
	switch {
	case e != nil && e.Rung == schemas.RungAskUser:
		wait := w.in.UserWait
		if wait <= 0 {
			wait = schemas.DefaultUserWait
		}
		e.WaitUntil = workflow.Now(ctx).Add(wait)
		w.state.Escalations, w.state.Escalation = e.N, e
		if err := w.setStatus(ctx, schemas.StatusWaitingUser); err != nil {
			return err
		}
		w.watchAnswer(ctx, *e)
		return w.waitOn(ctx, schemas.WaitingOnUser)
	case e != nil && e.Rung == schemas.RungTicket:
		w.state.Escalations, w.state.Escalation = max(w.state.Escalations, e.N), e
		w.state.Tickets = append(w.state.Tickets, e.TicketID)
		if err := w.setStatus(ctx, schemas.StatusPausedSupport); err != nil {
			return err
		}
		return w.waitOn(ctx, schemas.WaitingOnSupport)
	case in.Pending != nil:
		w.state.Escalation = nil
		if err := w.setStatus(ctx, schemas.StatusOpen); err != nil {
			return err
		}
	}
	return w.waitOn(ctx, "")
}

// watchAnswer starts the timer of an escalation's question: if the case still waits on
// it when the timer fires, the main loop opens a ticket.
func (w *caseWorkflow) watchAnswer(ctx workflow.Context, e schemas.Escalation) {
	workflow.Go(ctx, func(ctx workflow.Context) {
		wait := e.WaitUntil.Sub(workflow.Now(ctx))
		answered, err := workflow.AwaitWithTimeout(ctx, max(wait, 0), func() bool {
			return w.state.Escalation == nil || w.state.Escalation.N != e.N || w.state.Status != schemas.StatusWaitingUser
		})
		if err == nil && !answered {
			w.unanswered = e.N
		}
	})
}

// ticketUnanswered opens the ticket of an escalation whose question went unanswered.
func (w *caseWorkflow) ticketUnanswered(ctx workflow.Context, e schemas.Escalation) error {
	res, err := openTicket(ctx, ticketInput(w.state.UserID, w.state.CaseID, e, "the client did not answer in time"))
	if err != nil {
		return err
	}
	e.Rung, e.TicketID = schemas.RungTicket, res.TicketID
	if workflow.GetVersion(ctx, escalationRecords, workflow.DefaultVersion, 1) == 1 {
		w.recordEscalation(ctx, schemas.EscalationAttempt{N: e.N, Rung: schemas.RungTicket, Tool: e.Tool,
			Error: e.Error, At: workflow.Now(ctx), TicketID: res.TicketID})
	}
	w.state.Escalation = &e
	w.state.Tickets = append(w.state.Tickets, res.TicketID)
	if err := w.setStatus(ctx, schemas.StatusPausedSupport); err != nil {
		return err
	}
	if err := w.waitOn(ctx, schemas.WaitingOnSupport); err != nil {
		return err
	}
	return w.notice(ctx, schemas.RecordAssistant, fmt.Sprintf(caseWordsFor(w.in.Language).ticketUnanswered, res.TicketID))
}

// escalationRecords is the change that has the case record its own rungs of the
// ladder (the ticket of an unanswered question) in case_details.escalation, as turns
// record theirs (issue 37).
const escalationRecords = "escalation-records"

// recordEscalation appends an attempt of the case's own to case_details.escalation.
// A record that cannot be written is logged: support loses a detail, the case nothing.
func (w *caseWorkflow) recordEscalation(ctx workflow.Context, a schemas.EscalationAttempt) {
	opts := reportOptions
	opts.Summary = "Record escalation " + a.Rung
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), casesActs.RecordEscalation,
		schemas.RecordEscalation{CaseID: w.state.CaseID, Attempts: []schemas.EscalationAttempt{a}}).Get(ctx, nil)
	if err != nil {
		workflow.GetLogger(ctx).Error("Escalation attempt not recorded", "Rung", a.Rung, "Error", err)
	}
}
