package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
)

// courtWatchTimeout bounds one run of the court watch, its continued runs included:
// polling at the portal's polite rate, one a second, it reads some thousands of files.
const courtWatchTimeout = 3 * time.Hour

// EnsureCourtWatchSchedule creates the Temporal schedule court-watch, which runs the
// CourtWatch workflow on taskQueue every every, a run at a time, or brings an existing
// one up to date: every worker calls it at start.
func EnsureCourtWatchSchedule(ctx context.Context, c client.Client, taskQueue string, every time.Duration) error {
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: every}}}
	action := &client.ScheduleWorkflowAction{
		ID:                       schemas.CourtWatchScheduleID,
		Workflow:                 schemas.CourtWatchWorkflow,
		Args:                     []any{schemas.CourtWatchInput{}},
		TaskQueue:                taskQueue,
		WorkflowExecutionTimeout: courtWatchTimeout,
	}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: schemas.CourtWatchScheduleID, Spec: spec, Action: action, Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
	})
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		err = c.ScheduleClient().GetHandle(ctx, schemas.CourtWatchScheduleID).Update(ctx, client.ScheduleUpdateOptions{
			DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
				s := in.Description.Schedule
				s.Spec, s.Action = &spec, action
				if s.Policy != nil {
					s.Policy.Overlap = enumspb.SCHEDULE_OVERLAP_POLICY_SKIP
				}
				return &client.ScheduleUpdate{Schedule: &s}, nil
			},
		})
	}
	if err != nil {
		return fmt.Errorf("create or update the court-watch schedule: %w", err)
	}
	return nil
}
