package firestore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// subscriptionData is a subscription as stored.
type subscriptionData struct {
	Plan      string         `firestore:"plan"`
	Credits   map[string]int `firestore:"credits"`
	Cases     []string       `firestore:"cases"`
	UpdatedAt time.Time      `firestore:"updated_at"`
}

func (d subscriptionData) subscription(id string) store.Subscription {
	if d.Cases == nil {
		d.Cases = []string{}
	}
	return store.Subscription{ID: id, Plan: d.Plan, Credits: d.Credits, Cases: d.Cases, UpdatedAt: d.UpdatedAt}
}

// readSubscription reads a subscription, in tx when it is not nil.
func (s *Store) readSubscription(ctx context.Context, tx *fs.Transaction, id string) (subscriptionData, error) {
	return read[subscriptionData](ctx, tx, s.doc(SubscriptionsCollection, id), "subscription "+id)
}

// PutSubscription creates or replaces a subscription's plan and credits, keeping the
// cases that used credits.
func (s *Store) PutSubscription(ctx context.Context, sub store.Subscription) (store.Subscription, error) {
	ref := s.doc(SubscriptionsCollection, sub.ID)
	var d subscriptionData
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		var err error
		if d, err = s.readSubscription(ctx, tx, sub.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		d.Plan, d.Credits, d.UpdatedAt = sub.Plan, sub.Credits, time.Now().UTC()
		if d.Cases == nil {
			d.Cases = []string{}
		}
		return tx.Set(ref, d)
	})
	if err != nil {
		return store.Subscription{}, fmt.Errorf("put subscription: %w", err)
	}
	return d.subscription(sub.ID), nil
}

// GetSubscription returns a subscription, or store.ErrNotFound.
func (s *Store) GetSubscription(ctx context.Context, id string) (store.Subscription, error) {
	d, err := s.readSubscription(ctx, nil, id)
	if err != nil {
		return store.Subscription{}, err
	}
	return d.subscription(id), nil
}

// UseCredit takes one credit of the tier and records the case, in a transaction; a
// case that used a credit already keeps it.
func (s *Store) UseCredit(ctx context.Context, id string, tier int, caseID string) (bool, error) {
	ref := s.doc(SubscriptionsCollection, id)
	key := strconv.Itoa(tier)
	var used bool
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		d, err := s.readSubscription(ctx, tx, id)
		if err != nil {
			return err
		}
		if slices.Contains(d.Cases, caseID) {
			used = true
			return nil
		}
		if d.Credits[key] <= 0 {
			used = false
			return nil
		}
		d.Credits[key]--
		d.Cases = append(d.Cases, caseID)
		d.UpdatedAt = time.Now().UTC()
		used = true
		return tx.Set(ref, d)
	})
	if err != nil {
		return false, fmt.Errorf("use credit: %w", err)
	}
	return used, nil
}
