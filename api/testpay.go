package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/store"
)

// testMode is the dev server's test-mode payment provider, or a 404.
func (h *handlers) testMode() (*payments.TestMode, error) {
	tm, ok := h.Payments.(*payments.TestMode)
	if !ok {
		return nil, problemf(store.ErrNotFound, "no test-mode payment provider here")
	}
	return tm, nil
}

// testPayPage shows the test-mode provider's checkout page, with its Pay button.
func (h *handlers) testPayPage(c echo.Context) error {
	tm, err := h.testMode()
	if err != nil {
		return err
	}
	if err := tm.ServePage(c.Response(), c.Param("session")); errors.Is(err, payments.ErrUnknownSession) {
		return problemf(store.ErrNotFound, "unknown or expired checkout session: open a new checkout")
	} else if err != nil {
		return err
	}
	return nil
}

// testPay is the test-mode page's Pay button: the provider sends the signed webhook,
// then the client goes to the checkout's success URL.
func (h *handlers) testPay(c echo.Context) error {
	tm, err := h.testMode()
	if err != nil {
		return err
	}
	next, err := tm.Pay(c.Request().Context(), c.Param("session"))
	if errors.Is(err, payments.ErrUnknownSession) {
		return problemf(store.ErrNotFound, "unknown or expired checkout session: open a new checkout")
	}
	if err != nil {
		return problemf(errUnavailable, "the test-mode provider could not deliver its webhook: "+err.Error())
	}
	return c.Redirect(http.StatusSeeOther, next)
}
