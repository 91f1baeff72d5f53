package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// tenantRun are the start options of a query or a citation check of who's tenant: its
// workflow ID names the tenant, so that the codec seals its payloads with the tenant's
// key (the firm's staff may read them, and nobody once they are erased), and its
// Tenant search attribute finds it for eraseTenantTexts.
func tenantRun(who auth.Identity, id func(tenant, id string) string, timeout time.Duration) client.StartWorkflowOptions {
	tenant := schemas.TenantKey(who.Org, who.Subject)
	return client.StartWorkflowOptions{ID: id(tenant, uuid.NewString()), WorkflowExecutionTimeout: timeout,
		TypedSearchAttributes: temporal.NewSearchAttributes(schemas.SATenant.ValueSet(tenant))}
}

// TenantTextsErased answers DELETE /v1/me/queries: how many queries, citation checks
// and chat messages were deleted.
type TenantTextsErased struct {
	Tenant string `json:"tenant"`
	Erased int    `json:"erased"`
}

// eraseTenantTexts answers DELETE /v1/me/queries: the caller's tenant's queries,
// citation checks and chat messages (their workflows, whose histories hold the
// texts) are deleted from
// Temporal, running or not; audited. A user of no organization erases their own; an
// organization's are erased by its admin (403 for its other users). Temporal lists a
// run a second or so after it starts, so one started just before may be left: ask
// again.
func (h *handlers) eraseTenantTexts(c echo.Context) error {
	who := identity(c)
	if who.Org != "" && !who.Has(schemas.RoleAdmin) {
		return problemf(errForbidden, "an organization's queries are erased by its admin")
	}
	tenant := schemas.TenantKey(who.Org, who.Subject)
	if err := h.audit(c, auditTenantTexts, who.Org, "", map[string]any{"tenant": tenant}); err != nil {
		return err
	}
	ctx := c.Request().Context()
	query := fmt.Sprintf("Tenant = '%s' AND WorkflowType IN ('%s', '%s', '%s')",
		schemas.QuoteVisibility(tenant), schemas.QueryWorkflow, schemas.CitationCheckWorkflow, schemas.ChatWorkflow)
	erased := 0
	var token []byte
	for {
		resp, err := h.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, NextPageToken: token})
		if err != nil {
			return fmt.Errorf("%w: list the tenant's queries: %w", errUnavailable, err)
		}
		for _, e := range resp.GetExecutions() {
			if schemas.TenantOfWorkflow(e.GetExecution().GetWorkflowId()) != tenant {
				continue // the search attribute alone does not make it the tenant's
			}
			_, err := h.Temporal.WorkflowService().DeleteWorkflowExecution(ctx, &workflowservice.DeleteWorkflowExecutionRequest{
				Namespace: h.App.Namespace, WorkflowExecution: e.GetExecution()})
			var notFound *serviceerror.NotFound
			if err != nil && !errors.As(err, &notFound) {
				return fmt.Errorf("%w: delete a query: %w", errUnavailable, err)
			}
			erased++
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	return c.JSON(http.StatusOK, TenantTextsErased{Tenant: tenant, Erased: erased})
}
