package activities

import (
	"context"

	"go.temporal.io/sdk/activity"
)

// run is the activity an activity's code runs as: its workflow (and so its case), the
// workflow's run, the activity's ID and its attempt. Inside an activity it is the
// activity's info; outside one, what WithRun put in the context.
type run struct {
	workflowID, runID, activityID string
	attempt                       int32
}

type runKey struct{}

// WithRun returns ctx in which the activities' code runs as the first attempt of
// activity activityID of the workflow run named: it publishes that workflow's events
// and meters its case's model calls as the activity would. It is for code that does
// an activity's work without Temporal (the benchmark's in-process loop); inside an
// activity the activity's own info wins.
func WithRun(ctx context.Context, workflowID, runID, activityID string) context.Context {
	return context.WithValue(ctx, runKey{}, run{workflowID: workflowID, runID: runID, activityID: activityID, attempt: 1})
}

// runOf is the activity ctx runs as; ok is false outside an activity and WithRun, where
// nothing is published or metered.
func runOf(ctx context.Context) (r run, ok bool) {
	if activity.IsActivity(ctx) {
		info := activity.GetInfo(ctx)
		id := info.ActivityID
		if info.IsLocalActivity {
			id = "local-" + id // local activities are numbered apart from the others
		}
		return run{workflowID: info.WorkflowExecution.ID, runID: info.WorkflowExecution.RunID, activityID: id, attempt: info.Attempt}, true
	}
	r, ok = ctx.Value(runKey{}).(run)
	return r, ok
}

// id names the activity execution: its workflow's run and its activity ID.
func (r run) id() string { return r.workflowID + "/" + r.runID + "/" + r.activityID }

type opKey struct{}

// withOp returns ctx in which opID is op, whatever activity runs: a tool call run again
// as a new activity keeps its first run's op (schemas.RunToolInput.Op).
func withOp(ctx context.Context, op string) context.Context {
	return context.WithValue(ctx, opKey{}, op)
}
