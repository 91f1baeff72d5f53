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
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: RetentionEvery}}}
	action := &client.ScheduleWorkflowAction{
		ID:                       schemas.RetentionScheduleID,
		Workflow:                 schemas.RetentionWorkflow,
		TaskQueue:                taskQueue,
		WorkflowExecutionTimeout: retentionTimeout,
	}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: schemas.RetentionScheduleID, Spec: spec, Action: action, Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
	})
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		err = c.ScheduleClient().GetHandle(ctx, schemas.RetentionScheduleID).Update(ctx, client.ScheduleUpdateOptions{
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
		return fmt.Errorf("create or update the retention schedule: %w", err)
	}
	return nil
}
