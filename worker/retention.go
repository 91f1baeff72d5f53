package worker

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
)

// Retention schedule timing.
const (
	// RetentionEvery is how often the retention schedule runs the Retention workflow.
	RetentionEvery = time.Hour
	// retentionTimeout bounds one run, its erasures included; the schedule skips its
	// next runs while one still runs.
	retentionTimeout = 6 * time.Hour
)

// EnsureRetentionSchedule creates the Temporal schedule that runs the Retention
// workflow (erasures retention asks for, and stalled ones) on taskQueue every
// RetentionEvery, a run at a time, or brings an existing one up to date: every worker
// calls it at start.
func EnsureRetentionSchedule(ctx context.Context, c client.Client, taskQueue string) error {
	return ensureSchedule(ctx, c, schemas.RetentionScheduleID, RetentionEvery, &client.ScheduleWorkflowAction{
		ID: schemas.RetentionScheduleID, Workflow: schemas.RetentionWorkflow, TaskQueue: taskQueue,
		WorkflowExecutionTimeout: retentionTimeout,
	})
}
