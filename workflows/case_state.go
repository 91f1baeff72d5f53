package workflows

import (
	"fmt"

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
func (w *caseWorkflow) notice(ctx workflow.Context, role schemas.RecordRole, text string) error {
	w.state.Notices++
	opts := storeOptions
	opts.Summary = "Transcript notice"
	return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), transcriptActs.RecordNotice, schemas.Notice{
		CaseID: w.state.CaseID, UserID: w.state.UserID, N: w.state.Notices, TurnNo: w.state.Turns,
		Role: role, Text: text, At: workflow.Now(ctx),
	}).Get(ctx, nil)
}
