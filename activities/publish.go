package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Publisher appends events to the event log of the case whose workflow runs the
// activity (schemas.CaseOfWorkflow), so that workflow code never writes them. An
// event's ID comes from the activity's workflow run, its activity ID and a name, which
// the activity's retries share: a retried activity stores each event once. A nil
// Publisher, or an activity outside a case, publishes nothing.
type Publisher struct {
	Events store.Events
}

// attemptOf is the activity's attempt, from 1; 1 for code run outside an activity
// (the benchmark's in-process turns).
func attemptOf(ctx context.Context) int32 {
	if !activity.IsActivity(ctx) {
		return 1
	}
	return activity.GetInfo(ctx).Attempt
}

// Publish appends an event of type typ with body. name tells apart the events of one
// activity (the type, unless an activity writes several of a type); turnID is the turn
// the event belongs to, or "" for the activity's own turn, if it runs in one.
func (p *Publisher) Publish(ctx context.Context, name, typ, turnID string, body any) error {
	if p == nil || !activity.IsActivity(ctx) {
		return nil
	}
	info := activity.GetInfo(ctx)
	wf := info.WorkflowExecution.ID
	caseID := schemas.CaseOfWorkflow(wf)
	if caseID == "" {
		return nil
	}
	if turnID == "" {
		turnID = schemas.TurnOfWorkflow(wf)
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("event %s: %w", typ, err)
	}
	_, err = p.Events.AppendEvents(ctx, caseID, store.Event{
		ID:   fmt.Sprintf("%s/%s/%s/%s", wf, info.WorkflowExecution.RunID, info.ActivityID, name),
		Type: typ, TurnID: turnID, At: time.Now().UTC(), Body: raw,
	})
	if err != nil {
		return fmt.Errorf("publish %s: %w", typ, err)
	}
	return nil
}
