package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// setPhase moves the case to a phase, in the store and its search attributes.
func (w *caseWorkflow) setPhase(ctx workflow.Context, phase string) error {
	return w.moveTo(ctx, phase, w.state.Status)
}

// setStatus moves the case to a status, in the store and its search attributes.
func (w *caseWorkflow) setStatus(ctx workflow.Context, status string) error {
	return w.moveTo(ctx, w.state.Phase, status)
}

// moveTo moves the case to a phase and status: the SetCaseStatus activity records its
// status so moved in the store, then the workflow takes the move and sets its search
// attributes.
func (w *caseWorkflow) moveTo(ctx workflow.Context, phase, status string) error {
	opts := storeOptions
	opts.Summary = fmt.Sprintf("Case is %s, %s", phase, status)
	moved := w.state
	moved.Phase, moved.Status, moved.Seq = phase, status, w.state.Seq+1
	view := moved.View(moved.Seq, workflow.Now(ctx))
	w.moving = &moved
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), casesActs.SetCaseStatus, schemas.SetCaseStatus{
		CaseID: w.state.CaseID, Status: view, Moved: true,
	}).Get(ctx, nil)
	w.moving = nil
	if err != nil {
		// The store may hold the move's status all the same: the next write takes the
		// next Seq, so that the store keeps it.
		w.state.Seq = moved.Seq
		return err
	}
	w.state.Phase, w.state.Status, w.state.Seq = phase, status, moved.Seq
	w.published = &view
	return workflow.UpsertTypedSearchAttributes(ctx, schemas.SAPhase.ValueSet(phase), schemas.SACaseStatus.ValueSet(status))
}

// publish records the case's CaseStatus in the store, as a local activity, when it
// changed since the last one recorded: the changes no activity records (a turn
// starting or ending, what the case waits on, an escalation, a stall). A failed write
// is logged and left: the next change writes the whole status again, and the store
// keeps the highest Seq.
func (w *caseWorkflow) publish(ctx workflow.Context) {
	view := w.state.View(w.state.Seq, time.Time{})
	if p := w.published; p != nil && p.Same(view) {
		return
	}
	w.state.Seq++
	view.Seq, view.UpdatedAt = w.state.Seq, workflow.Now(ctx)
	lo := localOptions(storeOptions)
	lo.ScheduleToCloseTimeout = localStepBudget
	lo.Summary = "Record the case's status"
	err := workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, lo), casesActs.SetCaseStatus, schemas.SetCaseStatus{
		CaseID: w.state.CaseID, Status: view,
	}).Get(ctx, nil)
	if err != nil {
		workflow.GetLogger(ctx).Warn("The case's status was not recorded", "Seq", view.Seq, "Error", err)
		return
	}
	w.published = &view
}

// waitOn records what the case waits on from now.
func (w *caseWorkflow) waitOn(ctx workflow.Context, on string) error {
	w.state.WaitingOn, w.state.ProgressAt = on, workflow.Now(ctx)
	return workflow.UpsertTypedSearchAttributes(ctx, schemas.SAWaitingOn.ValueSet(on), schemas.SAProgressAt.ValueSet(w.state.ProgressAt))
}

// notice writes a line into the transcript after the latest turn.
func (w *caseWorkflow) notice(ctx workflow.Context, role schemas.RecordRole, text string) error {
	w.state.Notices++
	opts := storeOptions
	opts.Summary = "Transcript notice"
	return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), transcriptActs.RecordNotice, schemas.Notice{
		CaseID: w.state.CaseID, UserID: w.state.UserID, N: w.state.Notices, TurnNo: w.state.Turns,
		Role: role, Text: text, At: workflow.Now(ctx),
	}).Get(ctx, nil)
}
