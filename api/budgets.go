package api

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// maxBudget bounds a budget an admin sets: far above any real day's use, and far below
// what would overflow a sum.
const maxBudget = 1_000_000_000_000

// BudgetRequest sets a tenant's model-token budgets per UTC day; 0, or leaving one
// out, keeps the deployment's default.
type BudgetRequest struct {
	TokensPerDay     int64 `json:"tokens_per_day"`
	CaseTokensPerDay int64 `json:"case_tokens_per_day"`
}

// BudgetView is a tenant's budgets in force, what its cases used today (UTC), and the
// budget an admin set, if any. Resumed, on a PUT, counts the tenant's cases waiting on
// their budget that were told to go on.
type BudgetView struct {
	Tenant string `json:"tenant"`
	schemas.TokenLimits
	Day       string        `json:"day"`
	UsedToday int64         `json:"used_today"`
	Set       *store.Budget `json:"set,omitempty"`
	Resumed   *int          `json:"resumed,omitempty"`
}

// tenantParam reads the route's tenant, "org:<id>" or "user:<id>", and returns its key
// and the organization it names ("" for a user).
func tenantParam(c echo.Context) (key, org string, err error) {
	kind, id, ok := strings.Cut(c.Param("tenant"), ":")
	if !ok || (kind != "user" && kind != "org") || id == "" || len(id) > 256 {
		return "", "", problemf(errInvalidInput, `the tenant is "org:<organization id>" or "user:<user id>"`)
	}
	if kind == "org" {
		return schemas.TenantKey(id, ""), id, nil
	}
	return schemas.TenantKey("", id), "", nil
}

// getBudget answers GET /v1/admin/budgets/{tenant}. An organization's admin reads only
// the organization's.
func (h *handlers) getBudget(c echo.Context) error {
	key, org, err := tenantParam(c)
	if err != nil {
		return err
	}
	who := identity(c)
	if who.Org != "" && who.Org != org {
		return problemf(errForbidden, "an organization's admin reads only the organization's budget")
	}
	view, err := h.budgetView(c, key)
	if err != nil {
		return err
	}
	if who.Org != "" && view.Set != nil {
		view.Set.SetBy = "" // the operator's staff are not named to a tenant
	}
	return c.JSON(http.StatusOK, view)
}

// putBudget answers PUT /v1/admin/budgets/{tenant}: it sets the tenant's budgets
// (audited; the operator's admins only, since budgets spend the operator's money) and
// tells the tenant's cases waiting on their budget to go on. A case still over budget
// waits again at its next model call.
func (h *handlers) putBudget(c echo.Context) error {
	if err := requireOperator(c, "setting a budget"); err != nil {
		return err
	}
	key, org, err := tenantParam(c)
	if err != nil {
		return err
	}
	var req BudgetRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.TokensPerDay < 0 || req.TokensPerDay > maxBudget || req.CaseTokensPerDay < 0 || req.CaseTokensPerDay > maxBudget {
		return problemf(errInvalidInput, fmt.Sprintf("tokens_per_day and case_tokens_per_day are 0 (the default) to %d", int64(maxBudget)))
	}
	who := identity(c)
	record, err := h.auditID(c, schemas.ActionBudget, org, "", map[string]any{"tenant": key,
		"tokens_per_day": req.TokensPerDay, "case_tokens_per_day": req.CaseTokensPerDay})
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	err = h.Store.PutBudget(ctx, store.Budget{Tenant: key, TokensPerDay: req.TokensPerDay, CaseTokensPerDay: req.CaseTokensPerDay,
		SetBy: who.Subject, UpdatedAt: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("%w: store budget: %w", errUnavailable, err)
	}
	n, err := h.resumeWaitingOnBudget(c, key, org, record)
	if err != nil {
		return err
	}
	view, err := h.budgetView(c, key)
	if err != nil {
		return err
	}
	view.Resumed = &n
	return c.JSON(http.StatusOK, view)
}

// resumeWaitingOnBudget sends the budget-raised update to the tenant's cases that wait
// on their budget, found through Temporal's visibility, and counts those that took it;
// the update names the tenant, which the case's validator checks too, and its ID is
// the audited record of the budget set, which the case verifies.
func (h *handlers) resumeWaitingOnBudget(c echo.Context, key, org, record string) (int, error) {
	ctx := c.Request().Context()
	subject := ""
	if org == "" {
		subject = strings.TrimPrefix(key, "user:")
	}
	query := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running' AND CaseStatus = '%s' AND %s",
		schemas.CaseWorkflow, schemas.StatusWaitingBudget, schemas.TenantClause(org, subject))
	raised := schemas.BudgetRaised{Tenant: key, By: identity(c).Subject}
	n, missed := 0, 0
	var token []byte
	for {
		resp, err := h.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, NextPageToken: token})
		if err != nil {
			return n, fmt.Errorf("%w: the budget is set, but its waiting cases could not be listed (PUT it again): %w", errUnavailable, err)
		}
		for _, e := range resp.Executions {
			id := e.GetExecution().GetWorkflowId()
			mine, err := h.ownsListed(ctx, e.GetSearchAttributes(), schemas.CaseIDOf(id), org, subject)
			if err != nil {
				return n, fmt.Errorf("%w: the budget is set, but a waiting case's tenant could not be checked (PUT it again): %w", errUnavailable, err)
			}
			if !mine {
				continue
			}
			// Accepted is enough: the case resumes (and may classify again) after.
			_, taken, err := h.updateCase(ctx, updateWait, schemas.CaseIDOf(id), schemas.UpdateBudgetRaised, record, raised, client.WorkflowUpdateStageAccepted)
			switch {
			case errors.Is(err, errCaseNotRunning), errors.Is(err, errConflict):
				continue // the case ended, or left waiting_budget, meanwhile
			case err != nil:
				return n, fmt.Errorf("%w: the budget is set, but a waiting case could not be told (PUT it again): %w", errUnavailable, err)
			case !taken:
				missed++ // no worker took it in time: the others are told all the same
				continue
			}
			n++
		}
		if token = resp.NextPageToken; len(token) != 0 {
			continue
		}
		if missed > 0 {
			return n, fmt.Errorf("%w: the budget is set and %d waiting cases resumed, but %d took no word in time (PUT it again)", errUnavailable, n, missed)
		}
		return n, nil
	}
}

// budgetView is the tenant's budgets in force and today's use.
func (h *handlers) budgetView(c echo.Context, key string) (BudgetView, error) {
	ctx := c.Request().Context()
	view := BudgetView{Tenant: key, TokenLimits: h.Budgets, Day: h.now().UTC().Format(time.DateOnly)}
	b, err := h.Store.GetBudget(ctx, key)
	switch {
	case err == nil:
		view.Set = &b
		view.TokensPerDay = cmp.Or(b.TokensPerDay, view.TokensPerDay)
		view.CaseTokensPerDay = cmp.Or(b.CaseTokensPerDay, view.CaseTokensPerDay)
	case !errors.Is(err, store.ErrNotFound):
		return view, fmt.Errorf("%w: read budget: %w", errUnavailable, err)
	}
	used, err := h.Store.TokensUsed(ctx, key, "", view.Day)
	if err != nil {
		return view, fmt.Errorf("%w: read token use: %w", errUnavailable, err)
	}
	view.UsedToday = used.Tenant
	return view, nil
}
