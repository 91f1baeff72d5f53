// Package workflows holds Lexflow's Temporal workflows: the long-lived Case workflow and
// the child workflows it runs for each phase and each chat turn.
package workflows

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
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
	// turnLock serializes turns: updates that arrive during a turn wait their turn.
	turnLock workflow.Mutex
}

func (w *caseWorkflow) setup(ctx workflow.Context) error {
	if w.in.State != nil {
		w.state = *w.in.State
		w.state.Runs++
	} else {
		w.state = schemas.CaseState{CaseID: w.in.CaseID, UserID: w.in.UserID, Phase: schemas.PhaseIntake, Status: schemas.StatusOpen, Runs: 1}
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
	return workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateCancelTurn, w.cancelTurn,
		workflow.UpdateHandlerOptions{Validator: w.validateCancel})
}

func (w *caseWorkflow) run(ctx workflow.Context) (schemas.CaseResult, error) {
	tenant := w.in.OrgID
	if tenant == "" {
		tenant = w.in.UserID
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, schemas.SATenantID.ValueSet(tenant),
		schemas.SACaseStatus.ValueSet(w.state.Status), schemas.SAPhase.ValueSet(w.state.Phase)); err != nil {
		return schemas.CaseResult{}, err
	}
	if w.state.Phase == schemas.PhaseIntake {
		// Tiering, quota and payment will sit here; until then intake leads to active.
		if err := w.setPhase(ctx, schemas.PhaseActive); err != nil {
			return schemas.CaseResult{}, err
		}
	}
	err := workflow.Await(ctx, func() bool {
		return w.state.Status == schemas.StatusClosed ||
			(workflow.GetInfo(ctx).GetContinueAsNewSuggested() && !w.state.Busy)
	})
	if err != nil {
		return schemas.CaseResult{}, err
	}
	// Let accepted updates finish, so no caller loses its answer.
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return schemas.CaseResult{}, err
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

func (w *caseWorkflow) setPhase(ctx workflow.Context, phase string) error {
	actx := workflow.WithActivityOptions(ctx, storeOptions)
	err := workflow.ExecuteActivity(actx, casesActs.SetCasePhase, schemas.SetCasePhase{
		CaseID: w.state.CaseID, Phase: phase, Status: w.state.Status,
	}).Get(ctx, nil)
	if err != nil {
		return err
	}
	w.state.Phase = phase
	return workflow.UpsertTypedSearchAttributes(ctx, schemas.SAPhase.ValueSet(phase))
}

// validateMessage rejects an update before it enters history: an empty or over-long
// message, or a closed case.
func (w *caseWorkflow) validateMessage(req schemas.SendMessageRequest) error {
	switch n := utf8.RuneCountInString(req.Message); {
	case strings.TrimSpace(req.Message) == "":
		return temporal.NewApplicationError("message is empty", schemas.ErrInvalidMessage)
	case n > schemas.MaxMessageChars:
		return temporal.NewApplicationErrorWithOptions("message is too long", schemas.ErrInvalidMessage,
			temporal.ApplicationErrorOptions{Details: []any{n, schemas.MaxMessageChars}})
	case w.state.Status == schemas.StatusClosed:
		return temporal.NewApplicationError("case is closed", schemas.ErrCaseClosed)
	}
	return nil
}

// sendMessage runs one chat turn. Turns run one at a time, in the order they arrive.
func (w *caseWorkflow) sendMessage(ctx workflow.Context, req schemas.SendMessageRequest) (schemas.TurnResult, error) {
	if err := w.turnLock.Lock(ctx); err != nil {
		return schemas.TurnResult{}, err
	}
	defer w.turnLock.Unlock()
	if err := workflow.Await(ctx, func() bool { return w.state.Phase == schemas.PhaseActive }); err != nil {
		return schemas.TurnResult{}, err
	}
	w.state.Busy = true
	defer func() { w.state.Busy = false }()

	w.state.Turns++
	n := w.state.Turns
	id := schemas.TurnWorkflowID(w.state.CaseID, n)
	w.state.LastTurn = id
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:    id,
		StaticSummary: fmt.Sprintf("Chat turn %d", n),
		// A turn belongs to its case: closing or terminating the case ends it too.
		ParentClosePolicy: enums.PARENT_CLOSE_POLICY_TERMINATE,
	})
	var res schemas.TurnResult
	err := workflow.ExecuteChildWorkflow(cctx, ChatTurn, schemas.ChatTurnInput{
		CaseID: w.state.CaseID, UserID: w.state.UserID, OrgID: w.in.OrgID, TurnID: id, TurnNo: n,
		Message: req.Message, Language: w.in.Language, MaxSteps: w.in.MaxSteps, Selection: req.Selection,
	}).Get(ctx, &res)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	res.Phase = w.state.Phase
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
