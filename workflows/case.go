// Package workflows holds Lexflow's Temporal workflows: the long-lived Case workflow and
// the child workflows it runs for each phase and each chat turn.
package workflows

import (
	"slices"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// Case runs one client case for as long as it is open. Each send-message update runs a
// chat turn as a ChatTurn child workflow, one turn at a time. Where the case stands
// (its CaseStatus) is recorded in the store at each change, and the state query
// answers it. The case continues as new when the server suggests it, carrying
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
	// payments is the payment-confirmed signal's channel.
	payments workflow.ReceiveChannel
	// events are the events received and not yet handled, in the order they came (see
	// drain); handlingEvents is set while the main loop handles them.
	events         []schemas.CaseEvent
	handlingEvents bool
	// moving is the state the case moves to while the activity that records the move
	// runs: the store may show it before the case takes it (see validateMessage).
	moving *schemas.CaseState
	// unanswered is the escalation whose question went unanswered in time.
	unanswered int
	// budgetRenewed is set when the day turned on a case waiting on its budget.
	budgetRenewed bool
	// published is the CaseStatus last recorded in the store by this run (see publish).
	published *schemas.CaseStatus
}

func (w *caseWorkflow) setup(ctx workflow.Context) error {
	if w.in.State != nil {
		w.state = *w.in.State
		w.state.Runs++
	} else {
		w.state = schemas.CaseState{CaseID: w.in.CaseID, UserID: w.in.UserID, Phase: phases[0].name,
			Status: schemas.StatusOpen, Runs: 1, ProgressAt: workflow.Now(ctx)}
	}
	w.turnLock = workflow.NewMutex(ctx)
	if err := workflow.SetQueryHandler(ctx, schemas.QueryState, func() (schemas.CaseStatus, error) {
		return w.state.View(w.state.Seq, workflow.Now(ctx)), nil
	}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateSendMessage, w.sendMessage,
		workflow.UpdateHandlerOptions{Validator: w.validateMessage}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateCancelTurn, w.cancelTurn,
		workflow.UpdateHandlerOptions{Validator: w.validateCancel}); err != nil {
		return err
	}
	return w.setupEvents(ctx)
}

// run greets a new client, starts the case with tiering and then handles what arrives: payments, support's
// resumptions, raised budgets, unanswered questions and renewed budgets, until the case
// closes or continues as new.
func (w *caseWorkflow) run(ctx workflow.Context) (schemas.CaseResult, error) {
	tenant := w.in.OrgID
	if tenant == "" {
		tenant = w.in.UserID
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, schemas.SATenantID.ValueSet(tenant),
		schemas.SATenant.ValueSet(schemas.TenantKey(w.in.OrgID, w.in.UserID)),
		schemas.SACaseStatus.ValueSet(w.state.Status), schemas.SAPhase.ValueSet(w.state.Phase),
		schemas.SAWaitingOn.ValueSet(w.state.WaitingOn), schemas.SAProgressAt.ValueSet(w.state.ProgressAt)); err != nil {
		return schemas.CaseResult{}, err
	}
	if err := w.turnLock.Lock(ctx); err != nil {
		return schemas.CaseResult{}, err
	}
	w.ready = true
	w.welcome(ctx)
	if w.state.Phase == schemas.PhaseTiering && !w.state.Asked && w.state.Status != schemas.StatusWaitingBudget {
		reply, err := w.classify(ctx, w.in.Description)
		if err == nil || isTierReview(err) {
			if nerr := w.notice(ctx, schemas.RecordAssistant, reply); nerr != nil {
				err = nerr
			}
		}
		if err != nil {
			if err := w.stallOr(ctx, err, schemas.Stall{Step: schemas.StepTiering, Tiering: w.in.Description}); err != nil {
				return schemas.CaseResult{}, err
			}
		}
	}
	if e := w.state.Escalation; e != nil && w.state.Status == schemas.StatusWaitingUser {
		w.watchAnswer(ctx, *e)
	}
	if p := w.state.Budget; p != nil && w.state.Status == schemas.StatusWaitingBudget {
		w.watchBudget(ctx, *p)
	}
	w.publish(ctx)
	w.turnLock.Unlock()
	for {
		err := workflow.Await(ctx, func() bool {
			return w.state.Status == schemas.StatusClosed || w.due() ||
				(workflow.GetInfo(ctx).GetContinueAsNewSuggested() && !w.state.Busy && w.state.Stalled == nil)
		})
		if err != nil {
			return schemas.CaseResult{}, err
		}
		if w.state.Status != schemas.StatusClosed && w.due() {
			if err := w.handleEvents(ctx); err != nil {
				return schemas.CaseResult{}, err
			}
			continue
		}
		// Let accepted updates finish, so no caller loses its answer; an event that
		// arrives meanwhile is handled at once, before the case ends or continues as
		// new (an update may be waiting for it).
		if err := workflow.Await(ctx, func() bool {
			return workflow.AllHandlersFinished(ctx) || w.pending()
		}); err != nil {
			return schemas.CaseResult{}, err
		}
		if w.state.Status != schemas.StatusClosed && w.pending() {
			continue
		}
		break
	}
	if w.state.Status == schemas.StatusClosed {
		if workflow.GetVersion(ctx, memoryProposals, workflow.DefaultVersion, 1) == 1 {
			w.proposeMemory(ctx)
		}
		return schemas.CaseResult{State: w.state}, nil
	}
	workflow.GetLogger(ctx).Info("Continuing case as new", "CaseID", w.state.CaseID, "Turns", w.state.Turns)
	next := w.in
	state := w.state
	next.State = &state
	return schemas.CaseResult{}, workflow.NewContinueAsNewError(ctx, Case, next)
}

// due reports whether the main loop has something to handle: events, a question gone
// unanswered, or a renewed budget; for a stalled case, support's resume alone.
func (w *caseWorkflow) due() bool {
	if w.state.Stalled != nil {
		return slices.ContainsFunc(w.events, func(e schemas.CaseEvent) bool { return e.Resume != nil })
	}
	return w.pending() || w.unanswered > 0 || w.budgetRenewed
}
