package store

import (
	"context"
	"time"
)

// DataKey is one data key, wrapped by a master key: a case's key, a user's key for
// what they keep across cases, or the system key. Only its wrapped bytes are stored;
// unwrapping them needs the master key, which never reaches the store.
type DataKey struct {
	// ID names the key, such as "case:<caseID>" or "system"; payloads and sealed
	// fields carry it.
	ID string `json:"key_id"`
	// Wrapped is the data key sealed by the master key Master; empty once destroyed.
	Wrapped []byte `json:"-"`
	Master  string `json:"master"`
	// CreatedAt is when the key was made; DestroyedAt, when set, when it was
	// destroyed for good.
	CreatedAt   time.Time  `json:"created_at"`
	DestroyedAt *time.Time `json:"destroyed_at,omitempty"`
}

// Keys keeps the wrapped data keys. A destroyed key leaves its ID and times behind, so
// that nothing makes a new key under an ID whose data must stay unreadable.
type Keys interface {
	// CreateKey stores k unless a key with its ID exists, destroyed or not, and
	// returns the stored key: two processes creating the same key agree on one.
	CreateKey(ctx context.Context, k DataKey) (DataKey, error)
	// GetKey returns a key, or ErrNotFound.
	GetKey(ctx context.Context, id string) (DataKey, error)
	// DestroyKey erases a key's wrapped bytes for good and returns what is left of
	// it. Destroying a destroyed key keeps the first time; a key never made is
	// ErrNotFound.
	DestroyKey(ctx context.Context, id string, at time.Time) (DataKey, error)
	// RewrapKey replaces a key's wrapped bytes and master if it is still wrapped by
	// master from, and reports whether it did: a key rewrapped or destroyed meanwhile
	// is left as it is.
	RewrapKey(ctx context.Context, id, from string, wrapped []byte, master string) (bool, error)
	// ListKeys returns the keys whose IDs sort after after, in ID order, at most limit
	// of them (100 when limit <= 0).
	ListKeys(ctx context.Context, after string, limit int) ([]DataKey, error)
}
