package store

import (
	"context"
	"time"
)

// Checkout statuses.
const (
	CheckoutOpen = "open"
	CheckoutPaid = "paid"
)

// Checkout is a payment the API opened with the payment provider for a case: what the
// provider must later confirm, through its signed webhook, before the case is active.
type Checkout struct {
	// ID is the provider's checkout session ID.
	ID       string `json:"session_id"`
	Provider string `json:"provider"`
	CaseID   string `json:"case_id"`
	OrgID    string `json:"org_id,omitempty"`
	UserID   string `json:"user_id"`
	Tier     int    `json:"tier"`
	// Amount is in the currency's minor unit (cents); Currency is ISO 4217, lower case,
	// as the provider writes it.
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	URL      string `json:"url"`
	Status   string `json:"status"`
	// EventID is the provider's event that paid the checkout: the first one applied.
	EventID   string    `json:"event_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	PaidAt    time.Time `json:"paid_at,omitzero"`
}

// Checkouts keeps the checkouts opened with the payment provider.
type Checkouts interface {
	// OpenCheckout stores c as open unless a checkout with its ID exists, and returns
	// the stored one.
	OpenCheckout(ctx context.Context, c Checkout) (Checkout, error)
	// GetCheckout returns a checkout, or ErrNotFound.
	GetCheckout(ctx context.Context, id string) (Checkout, error)
	// MarkCheckoutPaid marks an open checkout paid by eventID, atomically, and returns
	// the stored checkout: the first event to mark it is kept, so a caller whose event
	// is not the stored EventID knows another event paid it. ErrNotFound if there is no
	// such checkout.
	MarkCheckoutPaid(ctx context.Context, id, eventID string, at time.Time) (Checkout, error)
}
