package workflows

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// setupEvents registers the handlers of the case's events: the payment-confirmed
// signal, whose payments the main loop takes from their channel, and the updates that
// carry a resumption, a closing or a raised budget, each checked by its validator,
// queued for the main loop and answered with its outcome.
func (w *caseWorkflow) setupEvents(ctx workflow.Context) error {
	w.payments = workflow.GetSignalChannel(ctx, schemas.SignalPaymentConfirmed)
	if err := workflow.SetUpdateHandler(ctx, schemas.UpdateSettlePayment, w.settlePayment); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateResume, func(ctx workflow.Context, r schemas.Resume) (schemas.CaseOutcome, error) {
		r.At = workflow.Now(ctx)
		return w.queue(ctx, schemas.CaseEvent{Resume: &r})
	}, workflow.UpdateHandlerOptions{Validator: w.validateResume}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateCloseCase, func(ctx workflow.Context, c schemas.CloseCase) (schemas.CaseOutcome, error) {
		c.At = workflow.Now(ctx)
		return w.queue(ctx, schemas.CaseEvent{Close: &c})
	}, workflow.UpdateHandlerOptions{Validator: w.validateClose}); err != nil {
		return err
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateBudgetRaised, func(ctx workflow.Context, b schemas.BudgetRaised) (schemas.CaseOutcome, error) {
		b.At = workflow.Now(ctx)
		return w.queue(ctx, schemas.CaseEvent{Budget: &b})
	}, workflow.UpdateHandlerOptions{Validator: w.validateBudget})
}

// validateResume rejects, before it enters history, a resumption with an unknown
// action, no note or no actor, or of a case that is neither paused nor waiting on the
// client, and a tier but for a case stalled on its tiering.
func (w *caseWorkflow) validateResume(_ workflow.Context, r schemas.Resume) error {
	switch {
	case !slices.Contains(schemas.ResumeActions, r.Action):
		return temporal.NewApplicationError("action must be one of "+strings.Join(schemas.ResumeActions, ", "), schemas.ErrInvalidUpdate)
	case strings.TrimSpace(r.Note) == "" || utf8.RuneCountInString(r.Note) > schemas.MaxNoteChars:
		return temporal.NewApplicationError(fmt.Sprintf("note is required, at most %d characters: say why the case is resumed", schemas.MaxNoteChars), schemas.ErrInvalidUpdate)
	case r.By == "":
		return temporal.NewApplicationError("a resumption names who resumes", schemas.ErrInvalidUpdate)
	case r.Tier != 0 && (r.Tier < schemas.MinTier || r.Tier > schemas.MaxTier):
		return temporal.NewApplicationError(fmt.Sprintf("tier is %d to %d", schemas.MinTier, schemas.MaxTier), schemas.ErrInvalidUpdate)
	case r.Tier != 0 && (w.state.Stalled == nil || w.state.Stalled.Step != schemas.StepTiering || r.Action == schemas.ResumeClose):
		return temporal.NewApplicationError("a tier is set only by a retry or continue of a case paused on its tiering", schemas.ErrNotApplicable)
	case w.state.Status != schemas.StatusPausedSupport && w.state.Status != schemas.StatusWaitingUser:
		return temporal.NewApplicationError("the case is "+w.state.Status+"; only paused or waiting cases are resumed", schemas.ErrNotApplicable)
	}
	return nil
}

// validateClose rejects a closing with no actor or an over-long note, or of a closed
// case.
func (w *caseWorkflow) validateClose(_ workflow.Context, c schemas.CloseCase) error {
	switch {
	case c.By == "":
		return temporal.NewApplicationError("a closing names who closes", schemas.ErrInvalidUpdate)
	case utf8.RuneCountInString(c.Note) > schemas.MaxNoteChars:
		return temporal.NewApplicationError(fmt.Sprintf("note is at most %d characters", schemas.MaxNoteChars), schemas.ErrInvalidUpdate)
	case w.state.Status == schemas.StatusClosed:
		return temporal.NewApplicationError("case is closed", schemas.ErrCaseClosed)
	}
	return nil
}

// validateBudget rejects a raised budget with no actor, of another tenant, or sent
// to a case not waiting on its budget.
func (w *caseWorkflow) validateBudget(_ workflow.Context, b schemas.BudgetRaised) error {
	switch {
	case b.By == "":
		return temporal.NewApplicationError("a raised budget names who raised it", schemas.ErrInvalidUpdate)
	case b.Tenant != schemas.TenantKey(w.in.OrgID, w.in.UserID):
		return temporal.NewApplicationError("the budget raised is another tenant's", schemas.ErrNotApplicable)
	case w.state.Status != schemas.StatusWaitingBudget:
		return temporal.NewApplicationError("the case is "+w.state.Status+", not waiting on its budget", schemas.ErrNotApplicable)
	}
	return nil
}

// queue queues the event an update carries, named by the update's ID and stamped
// with the time the case took it, for the main loop, and answers with its outcome once
// the case has handled it, stalled on it or closed, or after SettleWait (the event
// then stays queued).
func (w *caseWorkflow) queue(ctx workflow.Context, e schemas.CaseEvent) (schemas.CaseOutcome, error) {
	e.ID = workflow.GetCurrentUpdateInfo(ctx).ID
	w.drain() // payments that came first are handled first
	w.events = append(w.events, e)
	out, err := w.outcome(ctx, e.ID)
	out.At = e.At()
	return out, err
}

// settlePayment answers with the outcome of the payment named id (PaymentConfirmed.ID)
// once the case has handled it, as queue does for an update's event.
func (w *caseWorkflow) settlePayment(ctx workflow.Context, id string) (schemas.CaseOutcome, error) {
	return w.outcome(ctx, id)
}

// outcome waits, at most SettleWait, until the event named id is handled, the case
// stalled on it, or closed once it is done handling events (a closed case handles no
// more), and answers where the case then stands.
func (w *caseWorkflow) outcome(ctx workflow.Context, id string) (schemas.CaseOutcome, error) {
	_, err := workflow.AwaitWithTimeout(ctx, schemas.SettleWait, func() bool {
		stalled := w.state.Stalled != nil && w.state.Stalled.Event != nil && w.state.Stalled.Event.ID == id
		closed := w.state.Status == schemas.StatusClosed && !w.handlingEvents
		return slices.Contains(w.state.Handled, id) || stalled || closed
	})
	return schemas.CaseOutcome{ID: id, Handled: slices.Contains(w.state.Handled, id), Refused: w.refusedWhy(id), Phase: w.state.Phase,
		Status: w.state.Status, Busy: w.state.Busy, Payment: w.state.Payment}, err
}

// pending reports whether events wait to be handled, queued or payments still in
// their channel.
func (w *caseWorkflow) pending() bool {
	return len(w.events) > 0 || w.payments.Len() > 0
}

// drain moves the payments in their channel to the queue, after the events queued
// before. With no goroutine between the channel and the main loop, a payment is
// either in its channel or queued, never in between, so none is lost when the case
// continues as new.
func (w *caseWorkflow) drain() {
	for {
		var p schemas.PaymentConfirmed
		if !w.payments.ReceiveAsync(&p) {
			return
		}
		w.events = append(w.events, schemas.CaseEvent{ID: p.ID, Payment: &p})
	}
}

// handleEvents handles the queued events in their order (see drain), then an
// unanswered question and a renewed budget, one at a time and never during a turn. A
// stalled case (see stallOr) handles only support's resume, which runs the stalled
// step again.
func (w *caseWorkflow) handleEvents(ctx workflow.Context) error {
	if err := w.turnLock.Lock(ctx); err != nil {
		return err
	}
	defer w.turnLock.Unlock()
	defer w.publish(ctx)
	w.handlingEvents = true
	defer func() { w.handlingEvents = false }()
	w.drain()
	if w.state.Stalled != nil {
		return w.unstall(ctx)
	}
	for len(w.events) > 0 && w.state.Status != schemas.StatusClosed && w.state.Stalled == nil {
		e := w.events[0]
		w.events = w.events[1:]
		if err := w.handleEvent(ctx, e); err != nil {
			return w.stallOr(ctx, err, schemas.Stall{Step: schemas.StepEvent, Event: &e})
		}
	}
	if w.state.Stalled != nil {
		return nil
	}
	if n := w.unanswered; n > 0 {
		w.unanswered = 0
		if e := w.state.Escalation; e != nil && e.N == n && w.state.Status == schemas.StatusWaitingUser {
			if err := w.ticketUnanswered(ctx, *e); err != nil {
				return w.stallOr(ctx, err, schemas.Stall{Step: schemas.StepUnanswered, Escalation: e})
			}
		}
	}
	if w.budgetRenewed {
		w.budgetRenewed = false
		if err := w.resumeBudget(ctx, nil); err != nil {
			return w.stallOr(ctx, err, schemas.Stall{Step: schemas.StepBudgetRenewed})
		}
	}
	return nil
}

// handleEvent handles one event and marks it handled. A retry that support's
// resumption asks for then runs as the case's next turn; if that turn fails, the case
// goes on as after a client's failed turn.
func (w *caseWorkflow) handleEvent(ctx workflow.Context, e schemas.CaseEvent) error {
	if !w.backed(ctx, e) {
		return nil
	}
	var err error
	var retry *schemas.Escalation
	switch {
	case e.Payment != nil:
		err = w.confirmPayment(ctx, *e.Payment)
	case e.Resume != nil:
		retry, err = w.resume(ctx, *e.Resume)
	case e.Close != nil:
		err = w.closeCase(ctx, *e.Close)
	case e.Budget != nil:
		err = w.resumeBudget(ctx, e.Budget)
	}
	if reason, ok := refusal(err); ok {
		w.refuse(ctx, e.ID, reason)
		return nil
	}
	if err != nil {
		return err
	}
	w.handled(e.ID)
	if retry == nil {
		return nil
	}
	if err := w.retryEscalated(ctx, *retry); err != nil {
		workflow.GetLogger(ctx).Error("Support's retry of an escalated request failed", "Error", err)
	}
	return nil
}

// handled remembers that the event named id is handled.
func (w *caseWorkflow) handled(id string) {
	w.state.Handled = append(w.state.Handled, id)
	if n := len(w.state.Handled); n > schemas.MaxHandled {
		w.state.Handled = w.state.Handled[n-schemas.MaxHandled:]
	}
}

// confirmPayment activates a case awaiting payment, recording its payment; the first
// confirmation counts and later ones change nothing.
func (w *caseWorkflow) confirmPayment(ctx workflow.Context, p schemas.PaymentConfirmed) error {
	if w.state.Phase != schemas.PhaseAwaitingPayment || w.state.Payment != nil {
		return nil
	}
	opts := storeOptions
	opts.Summary = "Record the payment" // the reference is staff-typed: no text Lexflow does not own
	var stored schemas.PaymentConfirmed
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), paymentActs.RecordPayment, schemas.RecordPayment{
		CaseID: w.state.CaseID, Payment: p, Tier: w.state.Tier,
	}).Get(ctx, &stored)
	if err != nil {
		return err
	}
	w.state.Payment = &stored
	if err := w.enter(ctx, schemas.PhaseActive); err != nil {
		return err
	}
	return w.notice(ctx, schemas.RecordAssistant, fmt.Sprintf(caseWordsFor(w.in.Language).paid, stored.Reference))
}

// resume is support's resumption of a paused or waiting case: recorded with who and
// why, it closes the case, lets the client go on, or returns the escalation whose
// request is to run again.
func (w *caseWorkflow) resume(ctx workflow.Context, r schemas.Resume) (*schemas.Escalation, error) {
	if w.state.Status != schemas.StatusPausedSupport && w.state.Status != schemas.StatusWaitingUser {
		workflow.GetLogger(ctx).Warn("Resume ignored: the case is not paused or waiting", "Status", w.state.Status, "By", r.By)
		return nil, nil
	}
	status := schemas.StatusOpen
	if r.Action == schemas.ResumeClose {
		status = schemas.StatusClosed
	}
	opts := storeOptions
	opts.Summary = fmt.Sprintf("Support %s resumes the case: %s", r.By, r.Action)
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), ticketActs.RecordResume, schemas.RecordResume{
		CaseID: w.state.CaseID, Resume: r,
	}).Get(ctx, nil)
	if err != nil {
		return nil, err
	}
	escalated := w.state.Escalation
	w.state.LastResume, w.state.Escalation = &r, nil
	if err := w.setStatus(ctx, status); err != nil {
		return nil, err
	}
	if err := w.waitOn(ctx, ""); err != nil {
		return nil, err
	}
	if err := w.notice(ctx, schemas.RecordSupport, fmt.Sprintf(caseWordsFor(w.in.Language).resumed[r.Action], r.By, r.Note)); err != nil {
		return nil, err
	}
	if r.Action != schemas.ResumeRetry || escalated == nil || escalated.Message == "" {
		return nil, nil
	}
	return escalated, nil
}

// retryEscalated runs an escalated turn's request again, as a new turn.
func (w *caseWorkflow) retryEscalated(ctx workflow.Context, e schemas.Escalation) error {
	w.state.Busy = true
	defer func() { w.state.Busy = false }()
	_, err := w.runTurn(ctx, schemas.SendMessageRequest{Message: e.Message, Selection: e.Selection})
	return err
}

// closeCase closes the case at the client's request: the main loop then ends the
// workflow.
func (w *caseWorkflow) closeCase(ctx workflow.Context, c schemas.CloseCase) error {
	if err := w.setStatus(ctx, schemas.StatusClosed); err != nil {
		return err
	}
	if err := w.waitOn(ctx, ""); err != nil {
		return err
	}
	text := fmt.Sprintf(caseWordsFor(w.in.Language).closed, c.By, c.Note)
	return w.notice(ctx, schemas.RecordAssistant, strings.TrimSpace(text))
}
