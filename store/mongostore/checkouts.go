package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/lexflow/lexflow/store"
)

// checkoutDoc is a checkout as stored.
type checkoutDoc struct {
	ID        string    `bson:"_id"`
	Provider  string    `bson:"provider"`
	CaseID    string    `bson:"case_id"`
	OrgID     string    `bson:"org_id,omitempty"`
	UserID    string    `bson:"user_id"`
	Tier      int       `bson:"tier"`
	Amount    int64     `bson:"amount"`
	Currency  string    `bson:"currency"`
	URL       string    `bson:"url"`
	Status    string    `bson:"status"`
	EventID   string    `bson:"event_id,omitempty"`
	CreatedAt time.Time `bson:"created_at"`
	PaidAt    time.Time `bson:"paid_at,omitzero"`
}

// OpenCheckout inserts c as open unless its ID exists, and returns the stored checkout.
func (s *Store) OpenCheckout(ctx context.Context, c store.Checkout) (store.Checkout, error) {
	c.Status, c.EventID, c.PaidAt = store.CheckoutOpen, "", time.Time{}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = time.Now().UTC()
	}
	if _, err := s.checkouts.InsertOne(ctx, checkoutDoc(c)); err != nil && !mongo.IsDuplicateKeyError(err) {
		return store.Checkout{}, fmt.Errorf("insert checkout: %w", err)
	}
	return s.GetCheckout(ctx, c.ID)
}

// GetCheckout returns a checkout, or store.ErrNotFound.
func (s *Store) GetCheckout(ctx context.Context, id string) (store.Checkout, error) {
	d, err := findOne[checkoutDoc](ctx, s.checkouts, bson.M{"_id": id}, "checkout "+id)
	return store.Checkout(d), err
}

// MarkCheckoutPaid marks the checkout paid by eventID if it is open, in one conditional
// write (under this process's lock as well, see lock), and returns the stored checkout.
func (s *Store) MarkCheckoutPaid(ctx context.Context, id, eventID string, at time.Time) (store.Checkout, error) {
	unlock := s.lock("checkout:" + id)
	_, err := s.checkouts.UpdateOne(ctx, bson.M{"_id": id, "status": store.CheckoutOpen},
		bson.M{"$set": bson.M{"status": store.CheckoutPaid, "event_id": eventID, "paid_at": at.UTC()}})
	unlock()
	if err != nil {
		return store.Checkout{}, fmt.Errorf("mark checkout paid: %w", err)
	}
	return s.GetCheckout(ctx, id)
}
