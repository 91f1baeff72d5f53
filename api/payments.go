package api

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/schemas"
)

// PaymentRequest confirms a case's payment.
type PaymentRequest struct {
	Reference string `json:"reference"`
}

// confirmPayment sends the payment-confirmed signal to a case awaiting payment and
// answers once the case has handled it: 200 with the payment and the case's phase, or
// 202 if the case is still busy with a turn. It is idempotent: confirming the recorded
// reference again answers 200 with it; another reference is a conflict, and so is a
// case with no payment due.
func (h *Handlers) confirmPayment(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	var req PaymentRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	req.Reference = strings.TrimSpace(req.Reference)
	if req.Reference == "" || len(req.Reference) > 200 {
		return problemf(errInvalidInput, "reference is required (the payment provider's reference, at most 200 characters)")
	}
	ctx := c.Request().Context()
	st, err := h.caseState(ctx, cs.ID)
	if err != nil {
		return problemf(errCaseNotRunning, "the case's workflow is not running")
	}
	switch {
	case st.Payment != nil && st.Payment.Reference == req.Reference:
		return c.JSON(http.StatusOK, map[string]any{"case_id": cs.ID, "payment": st.Payment, "phase": st.Phase})
	case st.Payment != nil:
		return problemf(errConflict, "the case is paid already, with reference "+st.Payment.Reference)
	case st.Phase != schemas.PhaseAwaitingPayment:
		return problemf(errConflict, "no payment is due: the case is "+st.Phase)
	}
	p := schemas.PaymentConfirmed{Reference: req.Reference, By: identity(c).Subject, At: time.Now().UTC()}
	if err := h.Temporal.SignalWorkflow(ctx, schemas.CaseWorkflowID(cs.ID), "", schemas.SignalPaymentConfirmed, p); err != nil {
		return fmt.Errorf("%w: signal payment: %w", errUnavailable, err)
	}
	if st, ok := h.settle(ctx, cs.ID, p.At); ok && st.Payment != nil {
		return c.JSON(http.StatusOK, map[string]any{"case_id": cs.ID, "payment": st.Payment, "phase": st.Phase})
	}
	return c.JSON(http.StatusAccepted, map[string]any{"case_id": cs.ID, "payment": p, "status": "confirming"})
}
