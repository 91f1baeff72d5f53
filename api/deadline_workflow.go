package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// deadlineWait bounds how long a deadline route waits for its workflow to take a new
// plan.
const deadlineWait = 10 * time.Second

// keepDeadline brings d's Deadline workflow in line with the stored deadline: an
// active one's workflow is started if need be and given d's plan, which re-plans its
// timers; any other status ends a running one, and needs none. The workflow is
// started here, not as a child of the case, so that closing the case leaves its
// timers running (docs/workflows.md). A plan the workflow missed (Temporal was
// unreachable) is caught at the deadline's end, when the workflow reads the stored
// deadline before marking it missed.
func (h *handlers) keepDeadline(ctx context.Context, cs store.Case, d store.Deadline) error {
	id := schemas.DeadlineWorkflowID(schemas.TenantKey(cs.OrgID, cs.UserID), cs.ID, d.ID)
	uctx, cancel := context.WithTimeout(ctx, deadlineWait)
	defer cancel()
	update := client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: schemas.UpdateDeadlinePlan, Args: []any{d.Plan()},
		UpdateID: fmt.Sprintf("plan-%d", d.Rev), WaitForStage: client.WorkflowUpdateStageCompleted,
	}
	var handle client.WorkflowUpdateHandle
	var err error
	if d.Status == schemas.DeadlineActive { // one call starts the workflow if need be and updates it
		start := h.Temporal.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
			ID: id, TaskQueue: h.TaskQueue,
			WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		}, schemas.DeadlineWorkflow, schemas.DeadlineInput{TenantID: cs.OrgID, CaseID: cs.ID, DeadlineID: d.ID,
			Owner: d.Owner, Language: cs.Language, Plan: d.Plan()})
		handle, err = h.Temporal.UpdateWithStartWorkflow(uctx, client.UpdateWithStartWorkflowOptions{
			StartWorkflowOperation: start, UpdateOptions: update})
	} else {
		handle, err = h.Temporal.UpdateWorkflow(uctx, update)
	}
	if err == nil {
		err = handle.Get(uctx, nil)
	}
	var notFound *serviceerror.NotFound
	if err == nil || (d.Status != schemas.DeadlineActive && errors.As(err, &notFound)) {
		return nil // a deadline no longer active whose workflow ended, or never ran
	}
	return fmt.Errorf("%w: tell the deadline's workflow: %w", errUnavailable, err)
}
