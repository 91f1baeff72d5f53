package stack

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
)

// LogQueueOnFailure logs, when t has failed, what the workflows of a task queue were
// doing: each open run's pending activities and children and its last history
// events. A test that timed out waiting on a turn then says where the turn stood.
func (s *Stack) LogQueueOnFailure(t *testing.T, queue string) {
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(s.describeQueue(queue))
		}
	})
}

// lastEvents is how many of a run's last history events describeQueue lists.
const lastEvents = 12

// describeQueue says what the open runs of a task queue (the first 50) are doing.
func (s *Stack) describeQueue(queue string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var b strings.Builder
	fmt.Fprintf(&b, "open workflows on %s at %s:\n", queue, time.Now().UTC().Format(time.TimeOnly))
	resp, err := s.TC.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("TaskQueue = %q AND ExecutionStatus = 'Running'", queue), PageSize: 50})
	if err != nil {
		return b.String() + "  listing: " + err.Error()
	}
	for _, e := range resp.GetExecutions() {
		id, run := e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId()
		fmt.Fprintf(&b, "- %s %s since %s\n", e.GetType().GetName(), id, e.GetStartTime().AsTime().Format(time.TimeOnly))
		d, err := s.TC.DescribeWorkflowExecution(ctx, id, run)
		if err != nil {
			fmt.Fprintf(&b, "  describe: %v\n", err)
			continue
		}
		for _, a := range d.GetPendingActivities() {
			fmt.Fprintf(&b, "  activity %s %s attempt %d scheduled %s last failure %q\n", a.GetActivityType().GetName(), a.GetState(),
				a.GetAttempt(), a.GetScheduledTime().AsTime().Format(time.TimeOnly), a.GetLastFailure().GetMessage())
		}
		for _, c := range d.GetPendingChildren() {
			fmt.Fprintf(&b, "  child %s %s\n", c.GetWorkflowTypeName(), c.GetWorkflowId())
		}
		if wt := d.GetPendingWorkflowTask(); wt != nil {
			fmt.Fprintf(&b, "  workflow task %s attempt %d scheduled %s\n", wt.GetState(), wt.GetAttempt(), wt.GetScheduledTime().AsTime().Format(time.TimeOnly))
		}
		var events []string
		it := s.TC.GetWorkflowHistory(ctx, id, run, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				events = append(events, "history: "+err.Error())
				break
			}
			line := fmt.Sprintf("%s %s", ev.GetEventTime().AsTime().Format("15:04:05.000"), ev.GetEventType())
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
				line += " " + a.GetActivityType().GetName()
			}
			if a := ev.GetActivityTaskFailedEventAttributes(); a != nil {
				line += " " + a.GetFailure().GetMessage()
			}
			if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
				line += " " + a.GetFailure().GetMessage()
			}
			events = append(events, line)
		}
		fmt.Fprintf(&b, "  %d events, the last:\n", len(events))
		for _, line := range events[max(0, len(events)-lastEvents):] {
			fmt.Fprintf(&b, "    %s\n", line)
		}
	}
	return b.String()
}
