package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// SubscriptionRequest sets a subscription's plan and credits.
type SubscriptionRequest struct {
	Plan    string         `json:"plan"`
	Credits map[string]int `json:"credits"`
}

// putSubscription creates or replaces the subscription "user:<id>" or "org:<id>";
// the change is audited. Only the operator's admins set credits: an organization's
// admin would give their own organization free cases.
func (h *handlers) putSubscription(c echo.Context) error {
	if err := requireOperator(c, "setting a subscription"); err != nil {
		return err
	}
	id := c.Param("id")
	kind, owner, ok := strings.Cut(id, ":")
	if !ok || (kind != "user" && kind != "org") || owner == "" {
		return problemf(errInvalidInput, `the subscription ID is "user:<user id>" or "org:<organization id>"`)
	}
	org := ""
	if kind == "org" {
		org = owner
	}
	var req SubscriptionRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	for tier, n := range req.Credits {
		if t, err := strconv.Atoi(tier); err != nil || t < schemas.MinTier || t > schemas.MaxTier || n < 0 {
			return problemf(errInvalidInput, `credits map tiers "1", "2" and "3" to cases left (0 or more)`)
		}
	}
	if err := h.audit(c, auditSubscription, org, "", map[string]any{"subscription": id, "plan": req.Plan, "credits": req.Credits}); err != nil {
		return err
	}
	sub, err := h.Store.PutSubscription(c.Request().Context(), store.Subscription{ID: id, Plan: req.Plan, Credits: req.Credits})
	if err != nil {
		return fmt.Errorf("%w: store subscription: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, sub)
}
