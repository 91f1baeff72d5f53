package worker

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
)

// RefreshLaw schedule timing.
const (
	// RefreshLawEvery is how often the schedule reads the current texts of acts.
	RefreshLawEvery = 24 * time.Hour
	// refreshLawTimeout bounds one run; the schedule skips its next run while one
	// still runs.
	refreshLawTimeout = 2 * time.Hour
)

// EnsureRefreshLawSchedule creates the Temporal schedule that runs the RefreshLaw
// workflow on taskQueue every RefreshLawEvery, a run at a time, or brings an existing
// one up to date: every worker configured with the Portal Legislativ calls it at start.
func EnsureRefreshLawSchedule(ctx context.Context, c client.Client, taskQueue string) error {
	return ensureSchedule(ctx, c, schemas.RefreshLawScheduleID, RefreshLawEvery, &client.ScheduleWorkflowAction{
		ID: schemas.RefreshLawScheduleID, Workflow: schemas.RefreshLawWorkflow, TaskQueue: taskQueue,
		WorkflowExecutionTimeout: refreshLawTimeout,
	})
}
