package api

import (
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/store"
)

// Staff scope: a staff token names it (auth.Identity.Operator). The operator's own
// support, billing or admin staff act on every tenant; a firm's own desk, whose token
// names its organization, acts only on that organization's cases, and never on what a
// case costs (subscriptions, offline payments). Every staff action that changes
// something, or reads a case's tickets, transcript or events, is written to the audit
// log. The "Staff scope" table of docs/security.md says the same.

// inScope reports whether staff member id may act on the cases of organization org.
func inScope(id auth.Identity, org string) bool {
	return id.Operator || (id.Org != "" && id.Org == org)
}

// staffCase returns the case of the route's :id if the calling staff member's scope
// covers it; a case out of scope is as absent as a missing one, 404.
func (h *handlers) staffCase(c echo.Context) (store.Case, error) {
	return h.staffCaseByID(c, c.Param("id"))
}

// staffCaseByID is staffCase for a case named elsewhere than the route.
func (h *handlers) staffCaseByID(c echo.Context, id string) (store.Case, error) {
	if _, err := uuid.Parse(id); err != nil {
		return store.Case{}, problemf(store.ErrNotFound, "no case "+id)
	}
	cs, err := h.Store.GetCase(c.Request().Context(), id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !inScope(identity(c), cs.OrgID)) {
		return store.Case{}, problemf(store.ErrNotFound, "no case "+id)
	}
	if err != nil {
		return store.Case{}, fmt.Errorf("%w: read case: %w", errUnavailable, err)
	}
	return cs, nil
}

// requireOperator lets through only the operator's staff: the routes it
// guards act on every tenant at once (a prompts reload) or on what cases cost
// (subscriptions, offline payments), which a firm's staff would turn to its own profit.
func requireOperator(c echo.Context, what string) error {
	if !identity(c).Operator {
		return problemf(errForbidden, what+" is for the operator's own staff, who act on every tenant")
	}
	return nil
}
