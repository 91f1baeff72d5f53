package api

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// turnRetryAfter is when a caller held back by the concurrent-turn limit should try
// again: a turn of the offline model takes a second, a real model's several.
const turnRetryAfter = 10 * time.Second

// checkConcurrentTurns refuses a message when the caller's organization (or, without
// one, the caller) already has OrgConcurrentTurns cases working on a turn. The count
// is Temporal's visibility query over every replica's cases, so the limit holds across
// API replicas; visibility trails the cases by a moment, so a burst may pass it by the
// few messages sent within that moment.
func (h *handlers) checkConcurrentTurns(ctx context.Context, who auth.Identity) error {
	if h.OrgConcurrentTurns == 0 {
		return nil
	}
	resp, err := h.Temporal.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: workingQuery(who.Org, who.Subject)})
	if err != nil {
		return fmt.Errorf("%w: count running turns: %w", errUnavailable, err)
	}
	if n := resp.GetCount(); n >= int64(h.OrgConcurrentTurns) {
		return tooMany(fmt.Sprintf("%d of your cases are working on a turn, the limit; send this message when one is done", n), turnRetryAfter)
	}
	return nil
}

// workingQuery is the visibility query of a tenant's cases working on a turn. A run
// from before the Tenant key counts for an organization and a user of the same name
// alike.
func workingQuery(org, subject string) string {
	return fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running' AND %s AND WaitingOn = '%s'",
		schemas.CaseWorkflow, schemas.TenantClause(org, subject), schemas.WaitingOnAgent)
}
