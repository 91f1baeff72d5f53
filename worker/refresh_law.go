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
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: RefreshLawEvery}}}
	action := &client.ScheduleWorkflowAction{
		ID:                       schemas.RefreshLawScheduleID,
		Workflow:                 schemas.RefreshLawWorkflow,
		TaskQueue:                taskQueue,
		WorkflowExecutionTimeout: refreshLawTimeout,
	}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: schemas.RefreshLawScheduleID, Spec: spec, Action: action, Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
	})
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		err = c.ScheduleClient().GetHandle(ctx, schemas.RefreshLawScheduleID).Update(ctx, client.ScheduleUpdateOptions{
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
		return fmt.Errorf("create or update the refresh-law schedule: %w", err)
	}
	return nil
}
