// Package workflows holds Lexflow's Temporal workflows: the long-lived Case workflow and
// the child workflows it runs for each phase and each chat turn.
package workflows

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Case runs one client case for as long as it is open. Each send-message update runs a
// chat turn as a ChatTurn child workflow, one turn at a time; the state query answers
// where the case stands. The case continues as new when the server suggests it, carrying
// its state, since the transcript lives in the store rather than in history.
func Case(ctx workflow.Context, in schemas.CaseInput) (schemas.CaseResult, error) {
	w := &caseWorkflow{in: in}
	if err := w.setup(ctx); err != nil {
		return schemas.CaseResult{}, err
	}
	return w.run(ctx)
}

type caseWorkflow struct {
	in    schemas.CaseInput
	state schemas.CaseState
	// turnLock serializes turns, phases and support actions: whatever arrives during a
	// turn waits its turn.
	turnLock workflow.Mutex
	// ready is set once run holds the lock for the case's start, so that no update
	// overtakes tiering.
	ready bool
	// events are the signals received and not yet handled, in arrival order.
	events []caseEvent
	// unanswered is the escalation whose question went unanswered in time.
	unanswered int
}

// caseEvent is one received signal: exactly one field is set.
type caseEvent struct {
	payment *schemas.PaymentConfirmed
	resume  *schemas.Resume
	close   *schemas.CloseCase
}

func (w *caseWorkflow) setup(ctx workflow.Context) error {
	if w.in.State != nil {
		w.state = *w.in.State
		w.state.Runs++
	} else {
		w.state = schemas.CaseState{CaseID: w.in.CaseID, UserID: w.in.UserID, Phase: schemas.PhaseTiering,
			Status: schemas.StatusOpen, Runs: 1, ProgressAt: workflow.Now(ctx)}
	}
	w.turnLock = workflow.NewMutex(ctx)
	if err := workflow.SetQueryHandler(ctx, schemas.QueryState, func() (schemas.CaseState, error) {
		return w.state, nil
	}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateSendMessage, w.sendMessage,
		workflow.UpdateHandlerOptions{Validator: w.validateMessage}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandler(ctx, schemas.UpdateSettle, w.settle); err != nil {
		return err
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateCancelTurn, w.cancelTurn,
		workflow.UpdateHandlerOptions{Validator: w.validateCancel})
}

// run starts the case with tiering and then handles what arrives: payments, support's
// resumptions, and unanswered questions, until the case closes or continues as new.
func (w *caseWorkflow) run(ctx workflow.Context) (schemas.CaseResult, error) {
	tenant := w.in.OrgID
	if tenant == "" {
		tenant = w.in.UserID
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, schemas.SATenantID.ValueSet(tenant),
		schemas.SACaseStatus.ValueSet(w.state.Status), schemas.SAPhase.ValueSet(w.state.Phase),
		schemas.SAWaitingOn.ValueSet(w.state.WaitingOn), schemas.SAProgressAt.ValueSet(w.state.ProgressAt)); err != nil {
		return schemas.CaseResult{}, err
	}
	w.listen(ctx)
	if err := w.turnLock.Lock(ctx); err != nil {
		return schemas.CaseResult{}, err
	}
	w.ready = true
	if w.state.Phase == schemas.PhaseTiering && !w.state.Asked {
		reply, err := w.classify(ctx, w.in.Description)
		if err != nil {
			return schemas.CaseResult{}, err
		}
		if err := w.notice(ctx, store.RoleAssistant, reply); err != nil {
			return schemas.CaseResult{}, err
		}
	}
	if e := w.state.Escalation; e != nil && w.state.Status == schemas.StatusWaitingUser {
		w.watchAnswer(ctx, *e)
	}
	w.turnLock.Unlock()
	for {
		err := workflow.Await(ctx, func() bool {
			return w.state.Status == schemas.StatusClosed || len(w.events) > 0 || w.unanswered > 0 ||
				(workflow.GetInfo(ctx).GetContinueAsNewSuggested() && !w.state.Busy)
		})
		if err != nil {
			return schemas.CaseResult{}, err
		}
		if w.state.Status != schemas.StatusClosed && (len(w.events) > 0 || w.unanswered > 0) {
			if err := w.handleEvents(ctx); err != nil {
				return schemas.CaseResult{}, err
			}
			continue
		}
		// Let accepted updates finish, so no caller loses its answer; a signal that
		// arrives meanwhile is handled before the case ends or continues as new.
		if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
			return schemas.CaseResult{}, err
		}
		if w.state.Status != schemas.StatusClosed && len(w.events) > 0 {
			continue
		}
		break
	}
	if w.state.Status == schemas.StatusClosed {
		return schemas.CaseResult{State: w.state}, nil
	}
	workflow.GetLogger(ctx).Info("Continuing case as new", "CaseID", w.state.CaseID, "Turns", w.state.Turns)
	next := w.in
	state := w.state
	next.State = &state
	return schemas.CaseResult{}, workflow.NewContinueAsNewError(ctx, Case, next)
}

// listen queues the payment, resume and close signals for the main loop.
func (w *caseWorkflow) listen(ctx workflow.Context) {
	payments := workflow.GetSignalChannel(ctx, schemas.SignalPaymentConfirmed)
	resumes := workflow.GetSignalChannel(ctx, schemas.SignalResume)
	closes := workflow.GetSignalChannel(ctx, schemas.SignalCloseCase)
	workflow.Go(ctx, func(ctx workflow.Context) {
		s := workflow.NewSelector(ctx)
		s.AddReceive(payments, func(c workflow.ReceiveChannel, _ bool) {
			var p schemas.PaymentConfirmed
			c.Receive(ctx, &p)
			w.events = append(w.events, caseEvent{payment: &p})
		})
		s.AddReceive(resumes, func(c workflow.ReceiveChannel, _ bool) {
			var r schemas.Resume
			c.Receive(ctx, &r)
			w.events = append(w.events, caseEvent{resume: &r})
		})
		s.AddReceive(closes, func(c workflow.ReceiveChannel, _ bool) {
			var cl schemas.CloseCase
			c.Receive(ctx, &cl)
			w.events = append(w.events, caseEvent{close: &cl})
		})
		for {
			s.Select(ctx)
		}
	})
}

// handleEvents handles the queued signals in arrival order, then an unanswered
// question, one at a time and never during a turn.
func (w *caseWorkflow) handleEvents(ctx workflow.Context) error {
	if err := w.turnLock.Lock(ctx); err != nil {
		return err
	}
	defer w.turnLock.Unlock()
	for len(w.events) > 0 && w.state.Status != schemas.StatusClosed {
		e := w.events[0]
		w.events = w.events[1:]
		var err error
		var retry *schemas.Escalation
		switch {
		case e.payment != nil:
			err = w.confirmPayment(ctx, *e.payment)
		case e.resume != nil:
			retry, err = w.resume(ctx, *e.resume)
		case e.close != nil:
			err = w.closeCase(ctx, *e.close)
		}
		if err != nil {
			return err
		}
		w.settled(e.at())
		if retry != nil {
			if err := w.retryEscalated(ctx, *retry); err != nil {
				return err
			}
		}
	}
	if n := w.unanswered; n > 0 {
		w.unanswered = 0
		if e := w.state.Escalation; e != nil && e.N == n && w.state.Status == schemas.StatusWaitingUser {
			return w.ticketUnanswered(ctx, *e)
		}
	}
	return nil
}

// at is the event's stamp, which the settle update waits for.
func (e caseEvent) at() time.Time {
	switch {
	case e.payment != nil:
		return e.payment.At
	case e.resume != nil:
		return e.resume.At
	default:
		return e.close.At
	}
}

// settled remembers that the signal stamped at is handled.
func (w *caseWorkflow) settled(at time.Time) {
	w.state.Settled = append(w.state.Settled, at.UnixNano())
	if n := len(w.state.Settled); n > schemas.MaxSettled {
		w.state.Settled = w.state.Settled[n-schemas.MaxSettled:]
	}
}

// settle answers with the case's state once the signal stamped at is handled, the case
// has closed, or schemas.SettleWait has passed: the API sends a signal, then settles,
// and answers with the signal's outcome. A retry that support's resumption starts
// runs after the resumption settles.
func (w *caseWorkflow) settle(ctx workflow.Context, at time.Time) (schemas.CaseState, error) {
	_, err := workflow.AwaitWithTimeout(ctx, schemas.SettleWait, func() bool {
		return w.state.Status == schemas.StatusClosed || slices.Contains(w.state.Settled, at.UnixNano())
	})
	return w.state, err
}

// setPhase moves the case to a phase, in the store and its search attributes.
func (w *caseWorkflow) setPhase(ctx workflow.Context, phase string) error {
	return w.moveTo(ctx, phase, w.state.Status)
}

// setStatus moves the case to a status, in the store and its search attributes.
func (w *caseWorkflow) setStatus(ctx workflow.Context, status string) error {
	return w.moveTo(ctx, w.state.Phase, status)
}

func (w *caseWorkflow) moveTo(ctx workflow.Context, phase, status string) error {
	opts := storeOptions
	opts.Summary = fmt.Sprintf("Case is %s, %s", phase, status)
	actx := workflow.WithActivityOptions(ctx, opts)
	err := workflow.ExecuteActivity(actx, casesActs.SetCasePhase, schemas.SetCasePhase{
		CaseID: w.state.CaseID, Phase: phase, Status: status,
	}).Get(ctx, nil)
	if err != nil {
		return err
	}
	w.state.Phase, w.state.Status = phase, status
	return workflow.UpsertTypedSearchAttributes(ctx, schemas.SAPhase.ValueSet(phase), schemas.SACaseStatus.ValueSet(status))
}

// waitOn records what the case waits on from now.
func (w *caseWorkflow) waitOn(ctx workflow.Context, on string) error {
	w.state.WaitingOn, w.state.ProgressAt = on, workflow.Now(ctx)
	return workflow.UpsertTypedSearchAttributes(ctx, schemas.SAWaitingOn.ValueSet(on), schemas.SAProgressAt.ValueSet(w.state.ProgressAt))
}

// notice writes a line into the transcript after the latest turn.
func (w *caseWorkflow) notice(ctx workflow.Context, role, text string) error {
	w.state.Notices++
	opts := storeOptions
	opts.Summary = "Transcript notice"
	return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), lifecycleActs.RecordNotice, schemas.Notice{
		CaseID: w.state.CaseID, UserID: w.state.UserID, N: w.state.Notices, TurnNo: w.state.Turns,
		Role: role, Text: text, At: workflow.Now(ctx),
	}).Get(ctx, nil)
}

// validateMessage rejects an update before it enters history: an empty or over-long
// message, or a case that cannot take one (closed, awaiting payment, paused).
func (w *caseWorkflow) validateMessage(req schemas.SendMessageRequest) error {
	switch n := utf8.RuneCountInString(req.Message); {
	case strings.TrimSpace(req.Message) == "":
		return temporal.NewApplicationError("message is empty", schemas.ErrInvalidMessage)
	case n > schemas.MaxMessageChars:
		return temporal.NewApplicationErrorWithOptions("message is too long", schemas.ErrInvalidMessage,
			temporal.ApplicationErrorOptions{Details: []any{n, schemas.MaxMessageChars}})
	}
	return w.refusal()
}

// refusal is why the case cannot take a message now, or nil.
func (w *caseWorkflow) refusal() error {
	switch {
	case w.state.Status == schemas.StatusClosed:
		return temporal.NewApplicationError("case is closed", schemas.ErrCaseClosed)
	case w.state.Phase == schemas.PhaseAwaitingPayment:
		return temporal.NewApplicationError(fmt.Sprintf("the case (tier %d) is awaiting payment", w.state.Tier), schemas.ErrPaymentRequired)
	case w.state.Status == schemas.StatusPausedSupport:
		return temporal.NewApplicationError("the case is paused until support resolves its ticket", schemas.ErrCasePaused)
	}
	return nil
}

// sendMessage runs one chat turn, or, while tiering waits for the answer to its
// question, gives the answer to tiering. Turns run one at a time, in the order they
// arrive.
func (w *caseWorkflow) sendMessage(ctx workflow.Context, req schemas.SendMessageRequest) (schemas.TurnResult, error) {
	if err := workflow.Await(ctx, func() bool { return w.ready }); err != nil {
		return schemas.TurnResult{}, err
	}
	if err := w.turnLock.Lock(ctx); err != nil {
		return schemas.TurnResult{}, err
	}
	defer w.turnLock.Unlock()
	if err := w.refusal(); err != nil {
		return schemas.TurnResult{}, err
	}
	w.state.Busy = true
	defer func() { w.state.Busy = false }()
	if w.state.Phase == schemas.PhaseTiering {
		return w.answerTiering(ctx, req.Message)
	}
	return w.runTurn(ctx, req)
}

// runTurn runs a ChatTurn child and moves the case as its escalation says.
func (w *caseWorkflow) runTurn(ctx workflow.Context, req schemas.SendMessageRequest) (schemas.TurnResult, error) {
	if err := w.waitOn(ctx, schemas.WaitingOnAgent); err != nil {
		return schemas.TurnResult{}, err
	}
	w.state.Turns++
	n := w.state.Turns
	id := schemas.TurnWorkflowID(w.state.CaseID, n)
	w.state.LastTurn = id
	in := schemas.ChatTurnInput{
		CaseID: w.state.CaseID, UserID: w.state.UserID, OrgID: w.in.OrgID, TurnID: id, TurnNo: n,
		Message: req.Message, Language: w.in.Language, MaxSteps: w.in.MaxSteps, Selection: req.Selection,
		EscalationN: w.state.Escalations + 1,
	}
	if w.state.Status == schemas.StatusWaitingUser {
		in.Pending = w.state.Escalation
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:    id,
		StaticSummary: fmt.Sprintf("Chat turn %d", n),
		// A turn belongs to its case: closing or terminating the case ends it too.
		ParentClosePolicy: enums.PARENT_CLOSE_POLICY_TERMINATE,
	})
	var res schemas.TurnResult
	if err := workflow.ExecuteChildWorkflow(cctx, ChatTurn, in).Get(ctx, &res); err != nil {
		return schemas.TurnResult{}, err
	}
	if err := w.afterTurn(ctx, in, res.Escalation); err != nil {
		return schemas.TurnResult{}, err
	}
	res.Phase, res.Status = w.state.Phase, w.state.Status
	return res, nil
}

// validateCancel rejects a cancellation when no turn is running.
func (w *caseWorkflow) validateCancel() error {
	if !w.state.Busy {
		return temporal.NewApplicationError("no turn is running", schemas.ErrNoTurn)
	}
	return nil
}

// cancelTurn asks the running turn to stop; it stops between steps and answers its
// caller with what it has.
func (w *caseWorkflow) cancelTurn(ctx workflow.Context) (schemas.CancelTurnResult, error) {
	if !w.state.Busy {
		return schemas.CancelTurnResult{}, temporal.NewApplicationError("no turn is running", schemas.ErrNoTurn)
	}
	turnID := w.state.LastTurn
	if err := workflow.SignalExternalWorkflow(ctx, turnID, "", schemas.SignalCancelTurn, nil).Get(ctx, nil); err != nil {
		return schemas.CancelTurnResult{}, temporal.NewApplicationError("the turn ended before it could be cancelled", schemas.ErrNoTurn)
	}
	return schemas.CancelTurnResult{TurnID: turnID}, nil
}
