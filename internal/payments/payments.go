// Package payments opens checkouts with a payment provider and verifies the provider's
// signed webhooks. A case is paid only when the provider says so: Stripe in
// production (Stripe), or the built-in test-mode provider of `lexflow dev` (TestMode),
// which signs its webhooks exactly as Stripe does.
package payments

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Provider opens checkouts: pages where a client pays for a case.
type Provider interface {
	// Name names the provider in checkouts: "stripe" or "test".
	Name() string
	// Checkout opens a checkout session for a case.
	Checkout(ctx context.Context, r CheckoutRequest) (Session, error)
}

// CheckoutRequest is what a checkout charges for.
type CheckoutRequest struct {
	CaseID string
	Tier   int
	Price  Price
	// SuccessURL and CancelURL are where the provider sends the client afterwards.
	SuccessURL string
	CancelURL  string
}

// Session is an open checkout session: its ID, and the URL the client pays at.
type Session struct {
	ID  string
	URL string
}

// ErrProvider wraps every failure of a provider to open a checkout.
var ErrProvider = errors.New("payment provider failed")

// Price is an amount in a currency's minor unit (cents), with the currency as ISO 4217
// in lower case, as Stripe writes it.
type Price struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// String writes the price as people read it: "149.00 EUR".
func (p Price) String() string {
	return fmt.Sprintf("%d.%02d %s", p.Amount/100, p.Amount%100, strings.ToUpper(p.Currency))
}

// Prices is the price of a case by its tier.
type Prices map[int]Price

// ParsePrices reads a price table such as "1=49.00 EUR,2=149.00 EUR,3=399.00 EUR": every
// tier from minTier to maxTier needs a positive price with at most two decimals.
func ParsePrices(s string, minTier, maxTier int) (Prices, error) {
	out := Prices{}
	for entry := range strings.SplitSeq(s, ",") {
		tier, price, ok := strings.Cut(strings.TrimSpace(entry), "=")
		t, err := strconv.Atoi(strings.TrimSpace(tier))
		if !ok || err != nil || t < minTier || t > maxTier {
			return nil, fmt.Errorf("price %q: want <tier>=<amount> <currency>, tier %d to %d", entry, minTier, maxTier)
		}
		p, err := ParsePrice(price)
		if err != nil {
			return nil, fmt.Errorf("price of tier %d: %w", t, err)
		}
		out[t] = p
	}
	for t := minTier; t <= maxTier; t++ {
		if _, ok := out[t]; !ok {
			return nil, fmt.Errorf("no price for tier %d", t)
		}
	}
	return out, nil
}

// ParsePrice reads "149.00 EUR" or "149 eur".
func ParsePrice(s string) (Price, error) {
	amount, currency, ok := strings.Cut(strings.TrimSpace(s), " ")
	currency = strings.ToLower(strings.TrimSpace(currency))
	if !ok || len(currency) != 3 || strings.Trim(currency, "abcdefghijklmnopqrstuvwxyz") != "" {
		return Price{}, fmt.Errorf("%q: want an amount and a three-letter currency, such as 149.00 EUR", s)
	}
	whole, cents, dotted := strings.Cut(amount, ".")
	if dotted && len(cents) != 2 {
		return Price{}, fmt.Errorf("%q: want two decimals", s)
	}
	if !dotted {
		cents = "00"
	}
	if !digits(whole) || !digits(cents) || len(whole) > 9 {
		return Price{}, fmt.Errorf("%q: not an amount", s)
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	c, _ := strconv.ParseInt(cents, 10, 64)
	p := Price{Amount: w*100 + c, Currency: currency}
	if p.Amount <= 0 {
		return Price{}, fmt.Errorf("%q: the amount must be positive", s)
	}
	return p, nil
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
