package store

import (
	"context"
	"time"

	"github.com/lexflow/lexflow/internal/keys"
)

// DataKey is one wrapped data key, as package keys defines it: the keyring owns the
// record and this store keeps it.
type DataKey = keys.DataKey

var _ keys.Store = Keys(nil)

// Keys keeps the wrapped data keys. A destroyed key leaves its ID and times behind, so
// that nothing makes a new key under an ID whose data must stay unreadable. It is the
// keys.Store a keyring reads and writes.
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
