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

// RetentionEvery is how often the retention schedule runs the Retention workflow.
const RetentionEvery = time.Hour

// EnsureRetentionSchedule creates the Temporal schedule that runs the Retention
// workflow on taskQueue every RetentionEvery, a run at a time, unless it exists:
// every worker may call it at start.
func EnsureRetentionSchedule(ctx context.Context, c client.Client, taskQueue string) error {
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID:      schemas.RetentionScheduleID,
		Spec:    client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: RetentionEvery}}},
		Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
		Action: &client.ScheduleWorkflowAction{
			ID:                       schemas.RetentionScheduleID,
			Workflow:                 schemas.RetentionWorkflow,
			TaskQueue:                taskQueue,
			WorkflowExecutionTimeout: RetentionEvery,
		},
	})
	if err != nil && !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return fmt.Errorf("create the retention schedule: %w", err)
	}
	return nil
}
