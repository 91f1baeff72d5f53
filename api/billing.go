package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/api/serviceerror"

	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/schemas"
)

// OfflinePaymentRequest is billing staff's record of a payment made outside the
// provider, such as a bank transfer.
type OfflinePaymentRequest struct {
	// Reference is the transfer's reference, Amount what was paid ("149.00 EUR").
	Reference string `json:"reference"`
	Amount    string `json:"amount"`
	// Note says why the payment is recorded by hand; it goes to the audit log.
	Note string `json:"note"`
}

// OfflinePaymentView answers POST /v1/billing/cases/{id}/payments: the payment, and
// the case's phase once it is confirmed, or the status "confirming" until then.
type OfflinePaymentView struct {
	CaseID  string                   `json:"case_id"`
	Payment schemas.PaymentConfirmed `json:"payment"`
	Phase   string                   `json:"phase,omitempty"`
	Status  string                   `json:"status,omitempty"`
}

// recordOfflinePayment confirms a case's payment that the operator's billing staff
// received outside the provider (a firm's own billing staff cannot: they would make
// their own cases free). It is audited first, then sent to the case, and answers like the
// client routes: 200 with the payment and phase once the case has it, else 202.
func (h *handlers) recordOfflinePayment(c echo.Context) error {
	if err := requireOperator(c, "recording a payment"); err != nil {
		return err
	}
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	var req OfflinePaymentRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	req.Reference, req.Note = strings.TrimSpace(req.Reference), strings.TrimSpace(req.Note)
	price, perr := payments.ParsePrice(req.Amount)
	switch {
	case req.Reference == "" || len(req.Reference) > 200:
		return problemf(errInvalidInput, "reference is required (the transfer's reference, at most 200 characters)")
	case perr != nil:
		return problemf(errInvalidInput, "amount: "+perr.Error())
	case req.Note == "" || len(req.Note) > 2000:
		return problemf(errInvalidInput, "note is required (at most 2000 characters): say how the payment arrived")
	}
	ctx := c.Request().Context()
	st, err := paymentDue(cs)
	if err != nil {
		return err
	}
	switch due, ok := h.Prices[st.Tier]; {
	case !ok:
		return problemf(errUnavailable, "no price is configured for this tier (LEXFLOW_PRICES)")
	case price != due:
		return problemf(errInvalidInput, fmt.Sprintf("amount: the price due is %s; a payment of %s does not settle it", due, price))
	}
	p := schemas.PaymentConfirmed{Reference: req.Reference, Method: schemas.PaymentOffline, Amount: price.Amount,
		Currency: price.Currency, By: identity(c).Subject, At: time.Now().UTC()}
	p.ID, err = h.auditID(c, schemas.ActionOfflinePayment, cs.OrgID, cs.ID, map[string]any{
		"reference": p.Reference, "amount": p.Amount, "currency": p.Currency, "note": req.Note, "tier": st.Tier})
	if err != nil {
		return err
	}
	err = h.Temporal.SignalWorkflow(ctx, schemas.CaseWorkflowID(cs.ID), "", schemas.SignalPaymentConfirmed, p)
	var notFound *serviceerror.NotFound
	switch {
	case errors.As(err, &notFound):
		return problemf(errCaseNotRunning, "the case's workflow has ended")
	case err != nil:
		return fmt.Errorf("%w: signal payment: %w", errUnavailable, err)
	}
	if out, ok := h.settlePayment(ctx, updateWait, cs.ID, p.ID); ok && out.Payment != nil {
		return c.JSON(http.StatusOK, OfflinePaymentView{CaseID: cs.ID, Payment: *out.Payment, Phase: out.Phase})
	}
	return c.JSON(http.StatusAccepted, OfflinePaymentView{CaseID: cs.ID, Payment: p, Status: "confirming"})
}
