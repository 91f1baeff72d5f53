package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// maxHoldReason bounds a legal hold's reason, in characters.
const maxHoldReason = 2000

// HoldRequest puts a legal hold on a case.
type HoldRequest struct {
	// Reason says why the case must be kept: a litigation, an authority's request.
	Reason string `json:"reason"`
}

// HoldView answers the hold routes: the case's legal hold, none once lifted.
type HoldView struct {
	CaseID    string      `json:"case_id"`
	LegalHold *store.Hold `json:"legal_hold,omitempty"`
}

// putHold answers PUT /v1/admin/cases/{id}/hold: an admin in scope puts a legal hold
// on a case, or replaces its reason, so that it is not erased; audited (the reason
// stays with the hold, sealed with the case's key). A case whose erasure has begun is
// 409.
func (h *handlers) putHold(c echo.Context) error {
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	if err := othersHold(c, cs.Hold); err != nil {
		return err
	}
	var req HoldRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	req.Reason = strings.TrimSpace(req.Reason)
	if req.Reason == "" || utf8.RuneCountInString(req.Reason) > maxHoldReason {
		return problemf(errInvalidInput, fmt.Sprintf("reason is required, at most %d characters", maxHoldReason))
	}
	if err := h.audit(c, auditHoldSet, cs.OrgID, cs.ID, nil); err != nil {
		return err
	}
	who := identity(c)
	hold := store.Hold{By: who.Subject, Org: who.Org, Reason: req.Reason, At: time.Now().UTC()}
	if err := h.setHold(c, cs.ID, &hold); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, HoldView{CaseID: cs.ID, LegalHold: &hold})
}

// liftHold answers DELETE /v1/admin/cases/{id}/hold: an admin in scope lifts a case's
// legal hold; audited. Lifting a hold the case does not have changes nothing.
func (h *handlers) liftHold(c echo.Context) error {
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	if err := othersHold(c, cs.Hold); err != nil {
		return err
	}
	if err := h.audit(c, auditHoldLift, cs.OrgID, cs.ID, nil); err != nil {
		return err
	}
	if err := h.setHold(c, cs.ID, nil); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, HoldView{CaseID: cs.ID})
}

// errOthersHold is the refusal of a hold the operator's staff set to a firm's admin.
var errOthersHold = problemf(errForbidden, "this legal hold was set by the operator's staff; only they change or lift it")

// othersHold refuses, before the attempt is audited, a hold that is not the calling
// admin's to change (see store.Erasures.SetHold); the store refuses it again if the
// hold changed since it was read.
func othersHold(c echo.Context, hold *store.Hold) error {
	if who := identity(c); hold != nil && who.Org != "" && hold.Org != who.Org {
		return errOthersHold
	}
	return nil
}

// setHold sets or lifts a hold in the store for the caller, answering for its
// refusals.
func (h *handlers) setHold(c echo.Context, caseID string, hold *store.Hold) error {
	err := h.Store.SetHold(c.Request().Context(), caseID, identity(c).Org, hold)
	switch {
	case errors.Is(err, store.ErrOthersHold):
		return errOthersHold
	case errors.Is(err, store.ErrErasing):
		return problemf(errErasing, "the case's erasure has begun; it can no longer be held")
	case errors.Is(err, store.ErrNotFound):
		return problemf(store.ErrNotFound, "no case "+caseID)
	case err != nil:
		return fmt.Errorf("%w: set hold: %w", errUnavailable, err)
	}
	return nil
}
