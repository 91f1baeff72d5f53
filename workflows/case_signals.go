package workflows

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// caseSignals are the Case's signal channels.
type caseSignals struct {
	payments, resumes, closes, budgets workflow.ReceiveChannel
}

func newCaseSignals(ctx workflow.Context) caseSignals {
	return caseSignals{
		payments: workflow.GetSignalChannel(ctx, schemas.SignalPaymentConfirmed),
		resumes:  workflow.GetSignalChannel(ctx, schemas.SignalResume),
		closes:   workflow.GetSignalChannel(ctx, schemas.SignalCloseCase),
		budgets:  workflow.GetSignalChannel(ctx, schemas.SignalBudgetRaised),
	}
}

// signal is one of the Case's signal channels and how a value taken from it becomes a
// queued event: take receives one by receive (Receive, or ReceiveAsync, which may find
// none) and wraps it.
type signal struct {
	ch   workflow.ReceiveChannel
	take func(receive func(valuePtr any) bool) (schemas.CaseEvent, bool)
}

// takeAs is a signal's take for values of type T.
func takeAs[T any](wrap func(*T) schemas.CaseEvent) func(func(any) bool) (schemas.CaseEvent, bool) {
	return func(receive func(any) bool) (schemas.CaseEvent, bool) {
		v := new(T)
		if !receive(v) {
			return schemas.CaseEvent{}, false
		}
		return wrap(v), true
	}
}

// all are the signals, in the order they are listened to and drained.
func (s caseSignals) all() []signal {
	return []signal{
		{s.payments, takeAs(func(p *schemas.PaymentConfirmed) schemas.CaseEvent { return schemas.CaseEvent{Payment: p} })},
		{s.resumes, takeAs(func(r *schemas.Resume) schemas.CaseEvent { return schemas.CaseEvent{Resume: r} })},
		{s.closes, takeAs(func(c *schemas.CloseCase) schemas.CaseEvent { return schemas.CaseEvent{Close: c} })},
		{s.budgets, takeAs(func(b *schemas.BudgetRaised) schemas.CaseEvent { return schemas.CaseEvent{Budget: b} })},
	}
}

// listen queues the signals for the main loop from a goroutine of its own: how cases
// started before changeSignalsInMainLoop receive them. A signal that goroutine had
// taken but not yet queued when the case continued as new was lost.
func (w *caseWorkflow) listen(ctx workflow.Context) {
	w.listening = true
	workflow.Go(ctx, func(ctx workflow.Context) {
		sel := workflow.NewSelector(ctx)
		for _, sig := range w.signals.all() {
			sel.AddReceive(sig.ch, func(c workflow.ReceiveChannel, _ bool) {
				e, _ := sig.take(func(v any) bool { c.Receive(ctx, v); return true })
				w.events = append(w.events, e)
			})
		}
		for {
			sel.Select(ctx)
		}
	})
}

// pending reports whether signals wait to be handled, queued or still in their
// channels.
func (w *caseWorkflow) pending() bool {
	if len(w.events) > 0 {
		return true
	}
	if w.listening {
		return false
	}
	return slices.ContainsFunc(w.signals.all(), func(sig signal) bool { return sig.ch.Len() > 0 })
}

// drain moves the signals in the channels to the queue, in the order of their time
// stamps (the API stamps each signal when it sends it; signals of one kind keep their
// arrival order). With no goroutine between the channels and the main loop, a signal
// is either in its channel or queued, never in between, so none is lost when the case
// continues as new.
func (w *caseWorkflow) drain() {
	if w.listening {
		return
	}
	n := len(w.events)
	for _, sig := range w.signals.all() {
		for {
			e, ok := sig.take(sig.ch.ReceiveAsync)
			if !ok {
				break
			}
			w.events = append(w.events, e)
		}
	}
	slices.SortStableFunc(w.events[n:], func(a, b schemas.CaseEvent) int { return a.At().Compare(b.At()) })
}

// handleEvents handles the queued signals in their order (see drain), then an unanswered
// question and a renewed budget, one at a time and never during a turn. A stalled case
// (see stallOr) handles only support's resume, which runs the stalled step again.
func (w *caseWorkflow) handleEvents(ctx workflow.Context) error {
	if err := w.turnLock.Lock(ctx); err != nil {
		return err
	}
	defer w.turnLock.Unlock()
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

// handleEvent handles one signal and marks it settled. A retry that support's
// resumption asks for then runs as the case's next turn; if that turn fails, the case
// goes on as after a client's failed turn.
func (w *caseWorkflow) handleEvent(ctx workflow.Context, e schemas.CaseEvent) error {
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
	if err != nil {
		return err
	}
	w.settled(e.At())
	if retry == nil {
		return nil
	}
	err = w.retryEscalated(ctx, *retry)
	if err != nil && workflow.GetVersion(ctx, changeStallForSupport, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return err
	}
	if err != nil {
		workflow.GetLogger(ctx).Error("Support's retry of an escalated request failed", "Error", err)
	}
	return nil
}

// settled remembers that the signal stamped at is handled.
func (w *caseWorkflow) settled(at time.Time) {
	w.state.Settled = append(w.state.Settled, at.UnixNano())
	if n := len(w.state.Settled); n > schemas.MaxSettled {
		w.state.Settled = w.state.Settled[n-schemas.MaxSettled:]
	}
}

// settle answers with the case's state once the signal stamped at is handled, the case
// has closed or stalled on that signal, or schemas.SettleWait has passed: the API sends
// a signal, then settles, and answers with the signal's outcome. A retry that support's
// resumption starts runs after the resumption settles.
func (w *caseWorkflow) settle(ctx workflow.Context, at time.Time) (schemas.CaseState, error) {
	_, err := workflow.AwaitWithTimeout(ctx, schemas.SettleWait, func() bool {
		stalled := w.state.Stalled != nil && w.state.Stalled.Event != nil && w.state.Stalled.Event.At().Equal(at)
		return w.state.Status == schemas.StatusClosed || slices.Contains(w.state.Settled, at.UnixNano()) || stalled
	})
	return w.state, err
}

// confirmPayment activates a case awaiting payment, recording its payment; the first
// confirmation counts and later ones change nothing.
func (w *caseWorkflow) confirmPayment(ctx workflow.Context, p schemas.PaymentConfirmed) error {
	if w.state.Phase != schemas.PhaseAwaitingPayment || w.state.Payment != nil {
		return nil
	}
	opts := storeOptions
	opts.Summary = "Record payment " + p.Reference
	var stored schemas.PaymentConfirmed
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), paymentActs.RecordPayment, schemas.RecordPayment{
		CaseID: w.state.CaseID, Payment: p,
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
	if r.At.IsZero() {
		r.At = workflow.Now(ctx)
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
