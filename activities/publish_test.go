package activities

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// TestPublishOnceAcrossRetries: an activity of a case's turn that publishes an event
// and then fails is retried; its retry publishes the same event, which the log holds
// once, under the case and the turn the activity's workflow names.
func TestPublishOnceAcrossRetries(t *testing.T) {
	caseID := uuid.NewString()
	turn := schemas.TurnWorkflowID(caseID, 1)
	p := &Publisher{Events: st}
	attempts := 0
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivityWithOptions(func(ctx context.Context) error {
		attempts++
		if err := p.Publish(ctx, "started", schemas.EventTurnStarted, "", schemas.TurnStartedEvent{TurnNo: 1, Message: "hello"}); err != nil {
			return err
		}
		if attempts == 1 {
			return errors.New("the store write after the event failed")
		}
		return nil
	}, activity.RegisterOptions{Name: "Publishing"})
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute,
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Millisecond, MaximumAttempts: 3}})
		return workflow.ExecuteActivity(ctx, "Publishing").Get(ctx, nil)
	}, workflow.RegisterOptions{Name: "Turn"})
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: turn})
	env.ExecuteWorkflow("Turn")
	if err := env.GetWorkflowError(); err != nil || attempts != 2 {
		t.Fatalf("workflow: %v after %d attempts", err, attempts)
	}
	events, err := st.ListEvents(t.Context(), caseID, 0, 0)
	if err != nil || len(events) != 1 || events[0].Type != schemas.EventTurnStarted || events[0].TurnID != turn ||
		string(events[0].Body) != `{"turn_no":1,"message":"hello"}` {
		t.Errorf("events = %+v, %v; want the one turn.started of %s", events, err, turn)
	}
}
