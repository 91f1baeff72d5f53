package api

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/internal/reidentify"
	"github.com/lexflow/lexflow/schemas"
)

// modelParties are a case's parties as pseudonymizing reads them.
func (h *handlers) modelParties(ctx context.Context, caseID string) ([]pseudonym.Party, error) {
	parties, err := h.Store.ListParties(ctx, caseID)
	if err != nil {
		return nil, fmt.Errorf("%w: read the case's parties: %w", errUnavailable, err)
	}
	return pseudonymParties(parties), nil
}

// reidentifiedTurn is a turn's result as the client reads it. The models write the
// parties' placeholders ({{party0.lastName}}), and the workflows keep them as written;
// the client reads the parties' values, as the transcript and the event log hold them,
// and no tool arguments refused for their size.
func (h *handlers) reidentifiedTurn(ctx context.Context, caseID string, res schemas.TurnResult) (schemas.TurnResult, error) {
	res.ToolsUsed = schemas.BoundedToolsUsed(res.ToolsUsed) // as the transcript keeps them
	parties, err := h.modelParties(ctx, caseID)
	if err != nil {
		return res, err
	}
	return reidentify.Turn(res, parties), nil
}
