package activities

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

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
	err := runAsActivity(turn, func(ctx context.Context) error {
		attempts++
		if err := p.Publish(ctx, "started", schemas.EventTurnStarted, "", schemas.TurnStartedEvent{TurnNo: 1, Message: "hello"}); err != nil {
			return err
		}
		if attempts == 1 {
			return errors.New("the store write after the event failed")
		}
		return nil
	})
	if err != nil || attempts != 2 {
		t.Fatalf("workflow: %v after %d attempts", err, attempts)
	}
	events, err := st.ListEvents(t.Context(), caseID, 0, 0)
	if err != nil || len(events) != 1 || events[0].Type != schemas.EventTurnStarted || events[0].TurnID != turn ||
		string(events[0].Body) != `{"turn_no":1,"message":"hello"}` {
		t.Errorf("events = %+v, %v; want the one turn.started of %s", events, err, turn)
	}
}
