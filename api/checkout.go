package api

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// CheckoutView is an open checkout as the client sees it: where to pay, and how much.
type CheckoutView struct {
	CaseID    string `json:"case_id"`
	SessionID string `json:"session_id"`
	URL       string `json:"url"`
	Provider  string `json:"provider"`
	Tier      int    `json:"tier"`
	Amount    int64  `json:"amount"`
	Currency  string `json:"currency"`
	// Price is the amount as people read it: "149.00 EUR".
	Price string `json:"price"`
}

// checkout opens a checkout with the payment provider for a case awaiting payment, at
// its tier's price, and answers 201 with the URL to pay at. The payment counts only
// when the provider's signed webhook confirms it (see paymentWebhook).
func (h *handlers) checkout(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	if h.Payments == nil {
		return problemf(errUnavailable, "payments are not configured here (set LEXFLOW_STRIPE_KEY)")
	}
	ctx := c.Request().Context()
	st, err := paymentDue(cs)
	if err != nil {
		return err
	}
	price, ok := h.Prices[st.Tier]
	if !ok {
		return fmt.Errorf("no price for tier %d", st.Tier)
	}
	back := strings.TrimSuffix(h.PublicURL, "/") + "/?case=" + url.QueryEscape(cs.ID) + "&checkout="
	session, err := h.Payments.Checkout(ctx, payments.CheckoutRequest{CaseID: cs.ID, Tier: st.Tier, Price: price,
		SuccessURL: back + "success", CancelURL: back + "cancel"})
	if err != nil {
		return fmt.Errorf("%w: open a checkout: %w", errUnavailable, err)
	}
	co, err := h.Store.OpenCheckout(ctx, store.Checkout{ID: session.ID, Provider: h.Payments.Name(), CaseID: cs.ID,
		OrgID: cs.OrgID, UserID: cs.UserID, Tier: st.Tier, Amount: price.Amount, Currency: price.Currency, URL: session.URL})
	if err != nil {
		return fmt.Errorf("%w: store the checkout: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusCreated, CheckoutView{CaseID: cs.ID, SessionID: co.ID, URL: co.URL, Provider: co.Provider,
		Tier: co.Tier, Amount: co.Amount, Currency: co.Currency, Price: price.String()})
}

// paymentDue returns the status of a case that awaits its payment, or the problem
// that says why no payment is due.
func paymentDue(cs store.Case) (schemas.CaseStatus, error) {
	st := statusOf(cs)
	switch {
	case st.Status == schemas.StatusClosed:
		return st, problemf(errCaseNotRunning, "the case is closed")
	case st.Payment != nil:
		return st, problemf(errConflict, "the case is paid already, with reference "+st.Payment.Reference)
	case st.Phase != schemas.PhaseAwaitingPayment:
		return st, problemf(errConflict, "no payment is due: the case is "+st.Phase)
	}
	return st, nil
}

// errGone is a route that no longer exists, answered with where to go instead.
var errGone = errors.New("gone")

// paymentGone answers the old client-confirmed payment route: a client no longer
// confirms a payment.
func (h *handlers) paymentGone(echo.Context) error {
	return problemf(errGone, "a client no longer confirms a payment: open a checkout with POST /v1/cases/{id}/checkout "+
		"and pay at its url; the payment provider confirms the payment and the case becomes active")
}
