package api

import (
	"context"
	"slices"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
)

// settle waits until the case has handled the signal stamped at (see the Case
// workflow's settle update) and returns its state; ok is false if it could not tell.
func (h *Handlers) settle(ctx context.Context, caseID string, at time.Time) (schemas.CaseState, bool) {
	var st schemas.CaseState
	handle, err := h.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   schemas.CaseWorkflowID(caseID),
		UpdateName:   schemas.UpdateSettle,
		Args:         []any{at},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = handle.Get(ctx, &st)
	}
	if err != nil {
		h.Log.Warn("Settle failed", "case", caseID, "error", err)
		return st, false
	}
	return st, slices.Contains(st.Settled, at.UnixNano())
}
