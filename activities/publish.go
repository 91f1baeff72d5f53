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
// event's ID is the activity's opID and a name, which the activity's retries share: a
// retried activity stores each event once. A nil Publisher, an activity outside a
// case, or code run outside an activity and WithRun publishes nothing.
type Publisher struct {
	Events store.Events
}

// publishTimeout bounds one publish, which outlives the activity's own cancellation:
// a tool that timed out still reports that it finished.
const publishTimeout = 10 * time.Second

// attemptOf is the activity's attempt, from 1; 1 for code run outside an activity
// (the benchmark's in-process turns).
func attemptOf(ctx context.Context) int32 {
	if r, ok := runOf(ctx); ok {
		return r.attempt
	}
	return 1
}

// Publish appends an event of type typ with body. name tells apart the events of one
// activity (the type, unless an activity writes several of a type); turnID is the turn
// the event belongs to, or "" for the activity's own turn, if it runs in one. The
// activities whose step is a store write return its error, so that the step and its
// event are retried together; see Tell for the others.
func (p *Publisher) Publish(ctx context.Context, name, typ, turnID string, body any) error {
	r, ok := runOf(ctx)
	if p == nil || !ok {
		return nil
	}
	wf := r.workflowID
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
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), publishTimeout)
	defer cancel()
	_, err = p.Events.AppendEvents(ctx, caseID, store.Event{
		ID: opID(ctx) + "/" + name, Type: typ, TurnID: turnID, At: time.Now().UTC(), Body: raw,
	})
	if err != nil {
		return fmt.Errorf("publish %s: %w", typ, err)
	}
	return nil
}

// Tell is Publish for the activities whose step is not a store write (a model call, a
// tool, the citation check): an event it cannot write is logged, and the step keeps
// its result rather than being run, and paid for, again.
func (p *Publisher) Tell(ctx context.Context, name, typ string, body any) {
	if err := p.Publish(ctx, name, typ, "", body); err != nil {
		activity.GetLogger(ctx).Error("Event not published", "Type", typ, "Error", err)
	}
}
