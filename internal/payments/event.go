package payments

import (
	"encoding/json"
	"fmt"
)

// Event types a checkout's payment is confirmed by. Stripe sends
// checkout.session.completed when the client finishes the checkout (paid, unless the
// method settles later) and checkout.session.async_payment_succeeded when a delayed
// method settles.
const (
	EventCheckoutCompleted     = "checkout.session.completed"
	EventAsyncPaymentSucceeded = "checkout.session.async_payment_succeeded"
)

// Event is the part of a provider's webhook event that Lexflow reads, in Stripe's
// shape: {"id": "evt_…", "type": "checkout.session.completed", "data": {"object":
// {checkout session}}}.
type Event struct {
	ID       string `json:"id"`
	Object   string `json:"object"`
	Type     string `json:"type"`
	Created  int64  `json:"created"`
	Livemode bool   `json:"livemode"`
	Data     struct {
		Object CheckoutSession `json:"object"`
	} `json:"data"`
}

// CheckoutSession is the part of Stripe's checkout session object Lexflow reads.
type CheckoutSession struct {
	ID                string            `json:"id"`
	Object            string            `json:"object"`
	ClientReferenceID string            `json:"client_reference_id"`
	AmountTotal       int64             `json:"amount_total"`
	Currency          string            `json:"currency"`
	PaymentStatus     string            `json:"payment_status"`
	Status            string            `json:"status"`
	Metadata          map[string]string `json:"metadata,omitempty"`
	URL               string            `json:"url,omitempty"`
}

// Paid reports whether the event confirms that its checkout session is paid.
func (e Event) Paid() bool {
	switch e.Type {
	case EventCheckoutCompleted:
		return e.Data.Object.PaymentStatus == "paid"
	case EventAsyncPaymentSucceeded:
		return true
	}
	return false
}

// ParseEvent reads a webhook's payload; it needs an event ID and type, and, for the
// checkout events, a session ID.
func ParseEvent(payload []byte) (Event, error) {
	var e Event
	if err := json.Unmarshal(payload, &e); err != nil {
		return Event{}, fmt.Errorf("webhook payload: %w", err)
	}
	if e.ID == "" || e.Type == "" {
		return Event{}, fmt.Errorf("webhook payload: an event needs an id and a type")
	}
	if (e.Type == EventCheckoutCompleted || e.Type == EventAsyncPaymentSucceeded) && e.Data.Object.ID == "" {
		return Event{}, fmt.Errorf("webhook payload: a %s event needs its checkout session's id", e.Type)
	}
	return e, nil
}
