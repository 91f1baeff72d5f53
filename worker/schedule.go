package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// ensureSchedule creates the Temporal schedule id, which starts action every every,
// a run at a time (a run still going skips the next), or brings an existing one up to
// date: the workers that run its workflow call it at start.
func ensureSchedule(ctx context.Context, c client.Client, id string, every time.Duration, action *client.ScheduleWorkflowAction) error {
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: every}}}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: id, Spec: spec, Action: action, Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
	})
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		err = c.ScheduleClient().GetHandle(ctx, id).Update(ctx, client.ScheduleUpdateOptions{
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
		return fmt.Errorf("create or update the %s schedule: %w", id, err)
	}
	return nil
}
