package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/api/serviceerror"

	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// errBadWebhook is a webhook that is not signed with our secret, is stale, or does not
// match the checkout it names.
var errBadWebhook = errors.New("bad webhook")

// maxWebhook bounds a webhook's body; Stripe's checkout events are a few kilobytes.
const maxWebhook = 64 << 10

// WebhookAnswer answers the payment provider: the event, and what came of it
// (applied, duplicate, ignored, not-due, case-not-running).
type WebhookAnswer struct {
	Event  string `json:"event"`
	Status string `json:"status"`
}

// paymentWebhook applies the payment provider's event. It answers 400 unless the event
// is signed with LEXFLOW_PAYMENTS_WEBHOOK_SECRET within the tolerance (see webhookBody;
// 413 past 64 KiB) and names an open
// checkout with the same case, amount and currency; then the checkout is marked paid
// by the event (the first event to do so wins, so a replayed or second event changes
// nothing) and the case gets payment-confirmed; the answer waits up to webhookSettle
// for the case to handle it. A failure to reach the case answers 503, so the provider
// delivers the event again.
func (h *handlers) paymentWebhook(c echo.Context) error {
	if len(h.WebhookSecret) == 0 {
		return problemf(errUnavailable, "payments are not configured here (set LEXFLOW_PAYMENTS_WEBHOOK_SECRET)")
	}
	body, err := h.webhookBody(c)
	if err != nil {
		// Refused unread: the connection closes, rather than the server reading the
		// rest of the body before it answers.
		c.Response().Header().Set(echo.HeaderConnection, "close")
		return err
	}
	ev, err := payments.ParseEvent(body)
	if err != nil {
		return problemf(errBadWebhook, err.Error())
	}
	if !ev.Paid() {
		return c.JSON(http.StatusOK, WebhookAnswer{Event: ev.ID, Status: "ignored"})
	}
	ctx := c.Request().Context()
	session := ev.Data.Object
	co, err := h.Store.GetCheckout(ctx, session.ID)
	if errors.Is(err, store.ErrNotFound) {
		return problemf(errBadWebhook, "no checkout "+session.ID)
	}
	if err != nil {
		return fmt.Errorf("%w: read checkout: %w", errUnavailable, err)
	}
	if session.ClientReferenceID != co.CaseID || session.AmountTotal != co.Amount || session.Currency != co.Currency {
		h.Log.Warn("Webhook does not match its checkout", "event", ev.ID, "checkout", co.ID)
		return problemf(errBadWebhook, "the event's case, amount or currency is not the checkout's")
	}
	co, err = h.Store.MarkCheckoutPaid(ctx, co.ID, ev.ID, time.Now().UTC())
	if err != nil {
		return fmt.Errorf("%w: mark the checkout paid: %w", errUnavailable, err)
	}
	if co.EventID != ev.ID {
		return c.JSON(http.StatusOK, WebhookAnswer{Event: ev.ID, Status: "duplicate"})
	}
	cs, err := h.Store.GetCase(ctx, co.CaseID)
	var st schemas.CaseStatus
	if err == nil && cs.State != nil {
		st = *cs.State
	}
	switch {
	case errors.Is(err, store.ErrNotFound) || st.Status == schemas.StatusClosed:
		h.Log.Warn("Payment for a case that is closed or erased: refund due", "case", co.CaseID, "checkout", co.ID)
		return c.JSON(http.StatusOK, WebhookAnswer{Event: ev.ID, Status: "case-not-running"})
	case err != nil:
		// The provider delivers the event again, and the checkout, paid by this
		// event, lets it through.
		return fmt.Errorf("%w: read the case: %w", errUnavailable, err)
	case cs.State == nil:
		// No worker has run the case yet (a deploy, a restart): the same.
		return fmt.Errorf("%w: the case's workflow has not recorded its status yet", errUnavailable)
	case st.Payment != nil && st.Payment.Reference == co.ID:
		return c.JSON(http.StatusOK, WebhookAnswer{Event: ev.ID, Status: "applied"})
	case !st.PaymentDue():
		h.Log.Warn("Payment for a case with no payment due: refund due", "case", co.CaseID, "checkout", co.ID, "phase", st.Phase)
		return c.JSON(http.StatusOK, WebhookAnswer{Event: ev.ID, Status: "not-due"})
	}
	p := schemas.PaymentConfirmed{ID: ev.ID, Reference: co.ID, Method: schemas.PaymentCheckout, Amount: co.Amount, Currency: co.Currency,
		By: co.Provider, At: time.Now().UTC()}
	err = h.Temporal.SignalWorkflow(ctx, schemas.CaseWorkflowID(co.CaseID), "", schemas.SignalPaymentConfirmed, p)
	var notFound *serviceerror.NotFound
	switch {
	case errors.As(err, &notFound):
		h.Log.Warn("Payment for a case whose workflow has ended: refund due", "case", co.CaseID, "checkout", co.ID)
		return c.JSON(http.StatusOK, WebhookAnswer{Event: ev.ID, Status: "case-not-running"})
	case err != nil:
		return fmt.Errorf("%w: signal payment: %w", errUnavailable, err)
	}
	// Wait, briefly, for the case to handle it, so that the client who comes back from
	// the checkout finds the case active; the provider is not kept waiting long.
	h.settlePayment(ctx, webhookSettle, co.CaseID, p.ID)
	return c.JSON(http.StatusOK, WebhookAnswer{Event: ev.ID, Status: "applied"})
}

// webhookBody reads a webhook's body once its signature header is well formed and
// signed within payments.Tolerance of now, and its length at most maxWebhook, and
// returns it once the signature is the body's: nothing of a body is read before its
// header passes, nor parsed before its signature does.
func (h *handlers) webhookBody(c echo.Context) ([]byte, error) {
	req := c.Request()
	sig, err := payments.ParseSignature(req.Header.Get(payments.SignatureHeader), time.Now())
	if err != nil {
		h.Log.Warn("Webhook refused", "error", err)
		return nil, problemf(errBadWebhook, err.Error())
	}
	tooLarge := problemf(errTooLarge, fmt.Sprintf("a webhook's body is at most %d KiB", maxWebhook>>10))
	if req.ContentLength > maxWebhook {
		return nil, tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), req.Body, maxWebhook))
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &maxErr):
		return nil, tooLarge
	case err != nil:
		return nil, problemf(errBadWebhook, "the body broke off")
	}
	if err := sig.Verify(body, h.WebhookSecret); err != nil {
		h.Log.Warn("Webhook refused", "error", err)
		return nil, problemf(errBadWebhook, err.Error())
	}
	return body, nil
}

// webhookSettle bounds the wait for the case to handle a confirmed payment: the
// provider is not kept waiting when no worker answers.
const webhookSettle = 10 * time.Second
