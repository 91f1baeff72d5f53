package bench_test

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/worker"
)

// The floor is what Temporal costs a turn of the benchmark's shape when nothing else
// does: floorCase takes an update, as the Case does, and runs floorTurn as a child;
// floorTurn runs the ChatTurn's commands (its shape, read from a real turn's history)
// in order, each activity doing nothing. They run on a queue of their own, on a
// worker with the product's worker options, through the stack's client (whose codec
// encrypts every payload, as the product's does).
const (
	floorQueue  = "bench-floor"
	floorUpdate = "turn"
)

// floorCase waits for turns until it is terminated. Like the Case's update handler, it
// marks the case busy in its search attributes before the turn and idle after.
func floorCase(ctx workflow.Context) error {
	err := workflow.SetUpdateHandlerWithOptions(ctx, floorUpdate, func(ctx workflow.Context, n int, shape []string) error {
		if err := workflow.UpsertTypedSearchAttributes(ctx, schemas.SAWaitingOn.ValueSet(schemas.WaitingOnAgent)); err != nil {
			return err
		}
		id := fmt.Sprintf("%s:turn:%d", workflow.GetInfo(ctx).WorkflowExecution.ID, n)
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id})
		if err := workflow.ExecuteChildWorkflow(cctx, floorTurn, shape).Get(ctx, nil); err != nil {
			return err
		}
		return workflow.UpsertTypedSearchAttributes(ctx, schemas.SAWaitingOn.ValueSet(""))
	}, workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, n int, shape []string) error { return nil }})
	if err != nil {
		return err
	}
	return workflow.Await(ctx, func() bool { return false })
}

// floorTurn runs shape's commands one after another under a deadline timer, as a
// ChatTurn does.
func floorTurn(ctx workflow.Context, shape []string) error {
	tctx, stop := workflow.WithCancel(ctx)
	defer stop()
	workflow.NewTimer(tctx, schemas.DefaultTurnTimeout)
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 3}})
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 3}})
	for i, kind := range shape {
		var err error
		switch kind {
		case kindActivity:
			err = workflow.ExecuteActivity(actx, floorStep).Get(ctx, nil)
		case kindLocal:
			err = workflow.ExecuteLocalActivity(lctx, floorStep).Get(ctx, nil)
		case kindChild:
			cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: fmt.Sprintf("%s:%d", workflow.GetInfo(ctx).WorkflowExecution.ID, i)})
			err = workflow.ExecuteChildWorkflow(cctx, floorTurn, []string{}).Get(ctx, nil)
		default:
			err = fmt.Errorf("no such command kind %q", kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// floorStep is the floor's activity: it does nothing.
func floorStep(context.Context) error { return nil }

// benchFloor runs n floor turns of the given shape, turnsPerCase per case, and returns
// each one's latency.
func benchFloor(ctx context.Context, n int, shape []string) ([]time.Duration, error) {
	w := sdkworker.New(s.TC, floorQueue, worker.Version{}.Options())
	w.RegisterWorkflow(floorCase)
	w.RegisterWorkflow(floorTurn)
	w.RegisterActivity(floorStep)
	if err := w.Start(); err != nil {
		return nil, err
	}
	defer w.Stop()
	lat := make([]time.Duration, n)
	var caseID string
	for i := range n {
		if i%turnsPerCase == 0 {
			if caseID != "" {
				_ = s.TC.TerminateWorkflow(ctx, caseID, "", "bench: the case's turns are done")
			}
			caseID = "bench-floor:" + uuid.NewString()
			if _, err := s.TC.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: caseID, TaskQueue: floorQueue}, floorCase); err != nil {
				return nil, err
			}
		}
		start := time.Now()
		h, err := s.TC.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: caseID, UpdateName: floorUpdate,
			Args: []any{i, shape}, WaitForStage: client.WorkflowUpdateStageCompleted})
		if err == nil {
			err = h.Get(ctx, nil)
		}
		if err != nil {
			return nil, err
		}
		lat[i] = time.Since(start)
	}
	return lat, s.TC.TerminateWorkflow(ctx, caseID, "", "bench: the case's turns are done")
}
