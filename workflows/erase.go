package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

// eraseActs names the erasure's activities.
var eraseActs *activities.Erasure

// erasureOptions govern the erasure's steps: store, blob and key writes, retried for
// up to an hour while a service is unreachable; a step whose worker died is tried
// again after 20 seconds. A legal hold, or a case never stored, fails the erasure at
// once; an erasure that fails may be asked for again.
var erasureOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    20 * time.Second,
	ScheduleToCloseTimeout: time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        time.Minute,
		NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs, schemas.ErrLegalHold},
	},
}

// closeOptions govern CloseForErasure, which waits up to activities.CloseWait for the
// case's workflow to end.
var closeOptions = func() workflow.ActivityOptions {
	o := erasureOptions
	o.StartToCloseTimeout = activities.CloseWait + time.Minute
	return o
}()

// sweepMargin is how long after the last process forgot a destroyed key the erasure
// still waits before its last sweep: a write sealed just before then may still be on
// its way to the store.
const sweepMargin = 10 * time.Second

// Erase erases a case: it records the erasure's start (refused under a legal hold),
// ends the case's workflow, deletes the case's store data and blobs, destroys its data
// key, waits until no process holds the key any more (its cache's TTL, and a margin
// for writes on their way), deletes what a late write stored meanwhile (with the key
// gone, nothing more can be written), and records the receipt. The case's Temporal
// histories stay, sealed with a key that no longer exists. Its own payloads use the
// system key. An erasure already finished returns its receipt.
func Erase(ctx workflow.Context, in schemas.EraseInput) (schemas.Erasure, error) {
	ctx = workflow.WithActivityOptions(ctx, erasureOptions)
	var receipt schemas.Erasure
	if err := workflow.ExecuteActivity(ctx, eraseActs.BeginErasure, in).Get(ctx, &receipt); err != nil {
		return schemas.Erasure{}, err
	}
	if receipt.ErasedAt != nil {
		return receipt, nil
	}
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, closeOptions), eraseActs.CloseForErasure, in).Get(ctx, nil); err != nil {
		return schemas.Erasure{}, err
	}
	var erased, late schemas.Erased
	if err := workflow.ExecuteActivity(ctx, eraseActs.EraseCaseData, in.CaseID).Get(ctx, &erased); err != nil {
		return schemas.Erasure{}, err
	}
	var destroyed activities.DestroyedKey
	if err := workflow.ExecuteActivity(ctx, eraseActs.DestroyCaseKey, in.CaseID).Get(ctx, &destroyed); err != nil {
		return schemas.Erasure{}, err
	}
	// Other processes forget the key within their cache's TTL; a write they sealed
	// with it meanwhile is deleted below.
	if err := workflow.Sleep(ctx, destroyed.CacheTTL+min(destroyed.CacheTTL, sweepMargin)); err != nil {
		return schemas.Erasure{}, err
	}
	if err := workflow.ExecuteActivity(ctx, eraseActs.EraseCaseData, in.CaseID).Get(ctx, &late); err != nil {
		return schemas.Erasure{}, err
	}
	erased = erased.Add(late)
	erased.KeyDestroyedAt = &destroyed.At
	err := workflow.ExecuteActivity(ctx, eraseActs.FinishErasure, in.CaseID, erased).Get(ctx, &receipt)
	return receipt, err
}
