package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// keyDoc is a data key as stored.
type keyDoc struct {
	ID          string     `bson:"_id"`
	Wrapped     []byte     `bson:"wrapped,omitempty"`
	Master      string     `bson:"master"`
	CreatedAt   time.Time  `bson:"created_at"`
	DestroyedAt *time.Time `bson:"destroyed_at,omitempty"`
}

func (d keyDoc) key() store.DataKey {
	return store.DataKey{ID: d.ID, Wrapped: d.Wrapped, Master: d.Master, CreatedAt: d.CreatedAt, DestroyedAt: d.DestroyedAt}
}

// CreateKey inserts k unless a key with its ID exists, and returns the stored key.
func (s *Store) CreateKey(ctx context.Context, k store.DataKey) (store.DataKey, error) {
	d := keyDoc{ID: k.ID, Wrapped: k.Wrapped, Master: k.Master, CreatedAt: k.CreatedAt.UTC()}
	if _, err := s.keys.InsertOne(ctx, d); err != nil && !mongo.IsDuplicateKeyError(err) {
		return store.DataKey{}, fmt.Errorf("create key %s: %w", k.ID, err)
	}
	return s.GetKey(ctx, k.ID)
}

// GetKey returns the key with ID id.
func (s *Store) GetKey(ctx context.Context, id string) (store.DataKey, error) {
	d, err := findOne[keyDoc](ctx, s.keys, bson.M{"_id": id}, "key "+id)
	return d.key(), err
}

// DestroyKey unsets the key's wrapped bytes and stamps it destroyed, unless it is.
func (s *Store) DestroyKey(ctx context.Context, id string, at time.Time) (store.DataKey, error) {
	_, err := s.keys.UpdateOne(ctx, bson.M{"_id": id, "destroyed_at": bson.M{"$exists": false}},
		bson.M{"$unset": bson.M{"wrapped": ""}, "$set": bson.M{"destroyed_at": at.UTC()}})
	if err != nil {
		return store.DataKey{}, fmt.Errorf("destroy key %s: %w", id, err)
	}
	return s.GetKey(ctx, id)
}

// RewrapKey replaces the wrapping of a live key still wrapped by from.
func (s *Store) RewrapKey(ctx context.Context, id, from string, wrapped []byte, master string) (bool, error) {
	r, err := s.keys.UpdateOne(ctx, bson.M{"_id": id, "master": from, "destroyed_at": bson.M{"$exists": false}},
		bson.M{"$set": bson.M{"wrapped": wrapped, "master": master}})
	if err != nil {
		return false, fmt.Errorf("rewrap key %s: %w", id, err)
	}
	return r.ModifiedCount == 1, nil
}

// ListKeys returns the keys after after in ID order.
func (s *Store) ListKeys(ctx context.Context, after string, limit int) ([]store.DataKey, error) {
	if limit <= 0 {
		limit = 100
	}
	docs, err := findAll[keyDoc](ctx, s.keys, bson.M{"_id": bson.M{"$gt": after}}, "keys",
		options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, err
	}
	keys := make([]store.DataKey, len(docs))
	for i, d := range docs {
		keys[i] = d.key()
	}
	return keys, nil
}
