package firestore

import (
	"context"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// checkoutData is a checkout as stored.
type checkoutData struct {
	ID        string    `firestore:"id"`
	Provider  string    `firestore:"provider"`
	CaseID    string    `firestore:"case_id"`
	OrgID     string    `firestore:"org_id,omitempty"`
	UserID    string    `firestore:"user_id"`
	Tier      int       `firestore:"tier"`
	Amount    int64     `firestore:"amount"`
	Currency  string    `firestore:"currency"`
	URL       string    `firestore:"url"`
	Status    string    `firestore:"status"`
	EventID   string    `firestore:"event_id,omitempty"`
	CreatedAt time.Time `firestore:"created_at"`
	PaidAt    time.Time `firestore:"paid_at,omitempty"`
}

// OpenCheckout creates the checkout's document as open unless it exists, and returns
// the stored checkout.
func (s *Store) OpenCheckout(ctx context.Context, c store.Checkout) (store.Checkout, error) {
	c.Status, c.EventID, c.PaidAt = store.CheckoutOpen, "", time.Time{}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = time.Now().UTC()
	}
	if _, err := s.doc(CheckoutsCollection, c.ID).Create(ctx, checkoutData(c)); err != nil && !exists(err) {
		return store.Checkout{}, fmt.Errorf("store checkout: %w", err)
	}
	return s.GetCheckout(ctx, c.ID)
}

// readCheckout reads a checkout, in tx when it is not nil.
func (s *Store) readCheckout(ctx context.Context, tx *fs.Transaction, id string) (checkoutData, error) {
	return read[checkoutData](ctx, tx, s.doc(CheckoutsCollection, id), "checkout "+id)
}

// GetCheckout returns a checkout, or store.ErrNotFound.
func (s *Store) GetCheckout(ctx context.Context, id string) (store.Checkout, error) {
	d, err := s.readCheckout(ctx, nil, id)
	return store.Checkout(d), err
}

// MarkCheckoutPaid marks the checkout paid by eventID if it is open, in a transaction,
// and returns the stored checkout.
func (s *Store) MarkCheckoutPaid(ctx context.Context, id, eventID string, at time.Time) (store.Checkout, error) {
	ref := s.doc(CheckoutsCollection, id)
	var d checkoutData
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		var err error
		if d, err = s.readCheckout(ctx, tx, id); err != nil || d.Status != store.CheckoutOpen {
			return err
		}
		d.Status, d.EventID, d.PaidAt = store.CheckoutPaid, eventID, at.UTC()
		return tx.Set(ref, d)
	})
	if err != nil {
		return store.Checkout{}, fmt.Errorf("mark checkout paid: %w", err)
	}
	return store.Checkout(d), nil
}
