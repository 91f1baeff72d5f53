package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
)

// updateWait bounds how long a route waits for a case to take an update that carries
// an event (a resumption, a closing, a raised budget) and answer its outcome: with no
// worker running, the route answers 202 with the update's ID rather than hang.
const updateWait = 10 * time.Second

// updateCase sends the case's workflow the update name carrying arg, under the update
// ID id (for an event, the ID of the audited record that backs it: the case checks
// it), and waits at most wait for it to reach stage: accepted by the case's
// validator, or completed with its outcome. taken is false when it did not
// reach stage in time; out then holds only the update's ID. A rejection by the case's
// validator is an error of the kind its type names (see eventError).
func (h *handlers) updateCase(ctx context.Context, wait time.Duration, caseID, name, id string, arg any, stage client.WorkflowUpdateStage) (out schemas.CaseOutcome, taken bool, err error) {
	uctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	handle, err := h.Temporal.UpdateWorkflow(uctx, client.UpdateWorkflowOptions{
		UpdateID: id, WorkflowID: schemas.CaseWorkflowID(caseID), UpdateName: name,
		Args: []any{arg}, WaitForStage: stage,
	})
	if err == nil && stage == client.WorkflowUpdateStageCompleted {
		err = handle.Get(uctx, &out)
	}
	switch {
	case err != nil && uctx.Err() != nil && ctx.Err() == nil:
		h.Log.Warn("A case took no update in time", "case", caseID, "update", name, "id", id)
		return schemas.CaseOutcome{ID: id}, false, nil
	case err != nil:
		return schemas.CaseOutcome{ID: id}, false, eventError(err)
	}
	out.ID = id
	if out.Refused != "" {
		return out, true, fmt.Errorf("%w: the case did not act on it: %s", errUnavailable, out.Refused)
	}
	return out, true, nil
}

// eventError maps a failed event update to its failure kind.
func eventError(err error) error {
	var notFound *serviceerror.NotFound
	var appErr *temporal.ApplicationError
	switch {
	case errors.As(err, &notFound):
		return problemf(errCaseNotRunning, "the case's workflow has ended or was never started")
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrInvalidUpdate:
		return problemf(errInvalidInput, appErr.Message())
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrCaseClosed:
		return problemf(errCaseClosed, appErr.Message())
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrNotApplicable:
		return problemf(errConflict, appErr.Message())
	}
	return fmt.Errorf("%w: %w", errUnavailable, err)
}

// settlePayment waits, at most wait, until the case has handled the payment named id
// (PaymentConfirmed.ID) and returns its outcome; ok is false if it could not tell.
func (h *handlers) settlePayment(ctx context.Context, wait time.Duration, caseID, id string) (out schemas.CaseOutcome, ok bool) {
	out, taken, err := h.updateCase(ctx, wait, caseID, schemas.UpdateSettlePayment, uuid.NewString(), id, client.WorkflowUpdateStageCompleted)
	if err != nil {
		h.Log.Warn("Settle payment failed", "case", caseID, "payment", id, "error", err)
	}
	return out, err == nil && taken && out.Handled
}
