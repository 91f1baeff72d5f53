package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// PriceView is what a case costs: its tier's price, and whether the case waits for
// that payment (a subscription's credit covered it, or it is paid, when not).
type PriceView struct {
	CaseID   string `json:"case_id"`
	Tier     int    `json:"tier"`
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	// Price is the amount as people read it: "149.00 EUR".
	Price string `json:"price"`
	Due   bool   `json:"due"`
}

// casePrice answers the price of the case's tier, so that a client sees it before the
// checkout. A case still in tiering has no tier, and so no price, yet.
func (h *handlers) casePrice(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	st := statusOf(cs)
	if st.Tier == 0 {
		return problemf(errConflict, "the case has no tier yet: tiering is under way")
	}
	price, ok := h.Prices[st.Tier]
	if !ok {
		return problemf(errUnavailable, "no price is configured for this tier (LEXFLOW_PRICES)")
	}
	return c.JSON(http.StatusOK, PriceView{CaseID: cs.ID, Tier: st.Tier, Amount: price.Amount, Currency: price.Currency,
		Price: price.String(), Due: st.PaymentDue()})
}
