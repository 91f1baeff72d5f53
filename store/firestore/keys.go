package firestore

import (
	"context"
	"errors"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// keyData is a data key as stored.
// Fields that a write may clear have no omitempty: the emulator's Set keeps the fields
// a write leaves out, where Firestore's drops them, so a cleared field is written null.
type keyData struct {
	ID          string     `firestore:"id"`
	Wrapped     []byte     `firestore:"wrapped"`
	Master      string     `firestore:"master"`
	CreatedAt   time.Time  `firestore:"created_at"`
	DestroyedAt *time.Time `firestore:"destroyed_at"`
}

// CreateKey creates the key's document unless it exists, and returns the stored key.
func (s *Store) CreateKey(ctx context.Context, k store.DataKey) (store.DataKey, error) {
	d := keyData{ID: k.ID, Wrapped: k.Wrapped, Master: k.Master, CreatedAt: k.CreatedAt.UTC()}
	if _, err := s.doc(KeysCollection, k.ID).Create(ctx, d); err != nil && !exists(err) {
		return store.DataKey{}, fmt.Errorf("create key %s: %w", k.ID, err)
	}
	return s.GetKey(ctx, k.ID)
}

// readKey reads a key, in tx when it is not nil.
func (s *Store) readKey(ctx context.Context, tx *fs.Transaction, id string) (keyData, error) {
	return read[keyData](ctx, tx, s.doc(KeysCollection, id), "key "+id)
}

// GetKey returns the key with ID id.
func (s *Store) GetKey(ctx context.Context, id string) (store.DataKey, error) {
	d, err := s.readKey(ctx, nil, id)
	return store.DataKey(d), err
}

// DestroyKey drops the key's wrapped bytes and stamps it destroyed, unless it is.
func (s *Store) DestroyKey(ctx context.Context, id string, at time.Time) (store.DataKey, error) {
	ref := s.doc(KeysCollection, id)
	var d keyData
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		var err error
		if d, err = s.readKey(ctx, tx, id); err != nil || d.DestroyedAt != nil {
			return err
		}
		at := at.UTC()
		d.Wrapped, d.DestroyedAt = nil, &at
		return tx.Set(ref, d)
	})
	if err != nil {
		return store.DataKey{}, fmt.Errorf("destroy key %s: %w", id, err)
	}
	return store.DataKey(d), nil
}

// RewrapKey replaces the wrapping of a live key still wrapped by from.
func (s *Store) RewrapKey(ctx context.Context, id, from string, wrapped []byte, master string) (bool, error) {
	ref := s.doc(KeysCollection, id)
	var done bool
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		d, err := s.readKey(ctx, tx, id)
		if errors.Is(err, store.ErrNotFound) || err == nil && (d.Master != from || d.DestroyedAt != nil) {
			done = false
			return nil
		}
		if err != nil {
			return err
		}
		d.Wrapped, d.Master = wrapped, master
		done = true
		return tx.Set(ref, d)
	})
	if err != nil {
		return false, fmt.Errorf("rewrap key %s: %w", id, err)
	}
	return done, nil
}

// ListKeys returns the keys after after in ID order.
func (s *Store) ListKeys(ctx context.Context, after string, limit int) ([]store.DataKey, error) {
	if limit <= 0 {
		limit = 100
	}
	docs, err := all[keyData](ctx, s.client.Collection(KeysCollection).Where("id", ">", after).OrderBy("id", fs.Asc).Limit(limit))
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	keys := make([]store.DataKey, len(docs))
	for i, d := range docs {
		keys[i] = store.DataKey(d)
	}
	return keys, nil
}
