package workflows

import (
	"errors"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// Retention takes up stalled erasures and erases the closed cases whose
// organization's retention period has passed (activities.Erasure.ExpiredCases: at
// most activities.MaxExpiredPerRun a run; the schedule that runs it takes the rest
// next time), each by its own Erase workflow, and returns how many it erased. A case
// whose erasure is still running, or that a legal hold now keeps, is skipped.
func Retention(ctx workflow.Context) (int, error) {
	var ids []string
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, erasureOptions), eraseActs.ExpiredCases).Get(ctx, &ids); err != nil {
		return 0, err
	}
	futures := make([]workflow.ChildWorkflowFuture, 0, len(ids))
	for _, id := range ids {
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:            schemas.EraseWorkflowID(id),
			ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
		})
		in := schemas.EraseInput{CaseID: id, By: schemas.RetentionBy, Reason: schemas.ErasureRetention, At: workflow.Now(ctx)}
		futures = append(futures, workflow.ExecuteChildWorkflow(cctx, schemas.EraseWorkflow, in))
	}
	erased := 0
	for i, f := range futures {
		err := f.Get(ctx, nil)
		var app *temporal.ApplicationError
		var running *temporal.ChildWorkflowExecutionAlreadyStartedError
		switch {
		case err == nil:
			erased++
		case errors.As(err, &app) && app.Type() == schemas.ErrLegalHold:
			workflow.GetLogger(ctx).Info("Retention skips a case under legal hold", "case", ids[i])
		case errors.As(err, &running):
			workflow.GetLogger(ctx).Info("Retention leaves a running erasure to run", "case", ids[i])
		default:
			workflow.GetLogger(ctx).Warn("Retention could not erase a case", "case", ids[i], "error", err)
		}
	}
	return erased, nil
}
