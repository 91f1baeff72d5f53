package worker

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
)

// courtWatchTimeout bounds one run of the court watch, its continued runs included:
// polling at the portal's polite rate, one a second, it reads some thousands of files.
const courtWatchTimeout = 3 * time.Hour

// EnsureCourtWatchSchedule creates the Temporal schedule court-watch, which runs the
// CourtWatch workflow on taskQueue every every, a run at a time, or brings an existing
// one up to date: every worker calls it at start.
func EnsureCourtWatchSchedule(ctx context.Context, c client.Client, taskQueue string, every time.Duration) error {
	return ensureSchedule(ctx, c, schemas.CourtWatchScheduleID, every, &client.ScheduleWorkflowAction{
		ID: schemas.CourtWatchScheduleID, Workflow: schemas.CourtWatchWorkflow, Args: []any{schemas.CourtWatchInput{}},
		TaskQueue: taskQueue, WorkflowExecutionTimeout: courtWatchTimeout,
	})
}
