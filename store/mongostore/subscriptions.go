package mongostore

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// subscriptionDoc is a subscription as stored.
type subscriptionDoc struct {
	ID        string         `bson:"_id"`
	Plan      string         `bson:"plan"`
	Credits   map[string]int `bson:"credits"`
	Cases     []string       `bson:"cases"`
	UpdatedAt time.Time      `bson:"updated_at"`
}

// PutSubscription creates or replaces a subscription's plan and credits.
func (s *Store) PutSubscription(ctx context.Context, sub store.Subscription) (store.Subscription, error) {
	_, err := s.subs.UpdateOne(ctx, bson.M{"_id": sub.ID}, bson.M{
		"$set":         bson.M{"plan": sub.Plan, "credits": sub.Credits, "updated_at": time.Now().UTC()},
		"$setOnInsert": bson.M{"cases": []string{}},
	}, options.UpdateOne().SetUpsert(true))
	if err != nil {
		return store.Subscription{}, fmt.Errorf("put subscription: %w", err)
	}
	return s.GetSubscription(ctx, sub.ID)
}

// GetSubscription returns a subscription, or store.ErrNotFound.
func (s *Store) GetSubscription(ctx context.Context, id string) (store.Subscription, error) {
	d, err := findOne[subscriptionDoc](ctx, s.subs, bson.M{"_id": id}, "subscription "+id)
	if err != nil {
		return store.Subscription{}, err
	}
	if d.Cases == nil {
		d.Cases = []string{}
	}
	return store.Subscription{ID: d.ID, Plan: d.Plan, Credits: d.Credits, Cases: d.Cases, UpdatedAt: d.UpdatedAt}, nil
}

// UseCredit takes one credit of the tier and records the case in one atomic update,
// which matches only while a credit is left and the case has not used one.
func (s *Store) UseCredit(ctx context.Context, id string, tier int, caseID string) (bool, error) {
	field := "credits." + strconv.Itoa(tier)
	unlock := s.lock("subscription:" + id)
	res, err := s.subs.UpdateOne(ctx, bson.M{"_id": id, field: bson.M{"$gt": 0}, "cases": bson.M{"$ne": caseID}},
		bson.M{"$inc": bson.M{field: -1}, "$push": bson.M{"cases": caseID}, "$set": bson.M{"updated_at": time.Now().UTC()}})
	unlock()
	if err != nil {
		return false, fmt.Errorf("use credit: %w", err)
	}
	if res.ModifiedCount == 1 {
		return true, nil
	}
	sub, err := s.GetSubscription(ctx, id)
	if err != nil {
		return false, err
	}
	for _, c := range sub.Cases {
		if c == caseID {
			return true, nil
		}
	}
	return false, nil
}
