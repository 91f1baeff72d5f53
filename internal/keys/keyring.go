package keys

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrDestroyed is returned (wrapped) for a key that was destroyed: what it sealed can
// no longer be read, and nothing new is sealed under its ID.
var ErrDestroyed = errors.New("data key destroyed")

// Cache bounds.
const (
	// DefaultTTL is how long a Keyring keeps an unwrapped key: after a key is
	// destroyed in another process, this one stops using it within that time.
	DefaultTTL = time.Minute
	// maxCached bounds the unwrapped keys a Keyring holds.
	maxCached = 10000
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

// Store is what a Keyring needs of the database: store.Keys, which documents each
// method, is one. A key never made is an error for which IsNotFound reports true.
type Store interface {
	CreateKey(ctx context.Context, k DataKey) (DataKey, error)
	GetKey(ctx context.Context, id string) (DataKey, error)
	DestroyKey(ctx context.Context, id string, at time.Time) (DataKey, error)
	RewrapKey(ctx context.Context, id, from string, wrapped []byte, master string) (bool, error)
	ListKeys(ctx context.Context, after string, limit int) ([]DataKey, error)
}

// IsNotFound reports whether err says that nothing is stored under an ID: whether it
// wraps an error whose NotFound method reports true, as store.ErrNotFound's does. A
// Store's errors are told apart by that method, so this package need not import the
// store.
func IsNotFound(err error) bool {
	var nf interface{ NotFound() bool }
	return errors.As(err, &nf) && nf.NotFound()
}

// Keyring makes, finds and destroys data keys, wrapped by Wrapper in Store, and keeps
// the unwrapped ones it used in memory for TTL. It is safe for concurrent use.
type Keyring struct {
	Store   Store
	Wrapper Wrapper
	// TTL is how long an unwrapped key is kept (DefaultTTL when 0).
	TTL time.Duration

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	key   *Key
	until time.Time
}

// NewKeyring returns a Keyring over the keys in st wrapped by w.
func NewKeyring(st Store, w Wrapper) *Keyring {
	return &Keyring{Store: st, Wrapper: w}
}

// Key returns the data key named id, or the Store's not-found error (IsNotFound) if it
// was never made, or ErrDestroyed.
func (r *Keyring) Key(ctx context.Context, id string) (*Key, error) {
	if k := r.cached(id); k != nil {
		return k, nil
	}
	read := time.Now()
	dk, err := r.Store.GetKey(ctx, id)
	if err != nil {
		return nil, err
	}
	return r.unwrap(ctx, dk, read)
}

// Ensure returns the data key named id, making it first if it was never made. A
// destroyed key is ErrDestroyed: it is never made again.
func (r *Keyring) Ensure(ctx context.Context, id string) (*Key, error) {
	k, err := r.Key(ctx, id)
	if !IsNotFound(err) {
		return k, err
	}
	raw := make([]byte, KeySize)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	wrapped, err := r.Wrapper.Wrap(ctx, id, raw)
	if err != nil {
		return nil, fmt.Errorf("wrap key %s: %w", id, err)
	}
	read := time.Now()
	dk, err := r.Store.CreateKey(ctx, DataKey{ID: id, Wrapped: wrapped, Master: r.Wrapper.Current(), CreatedAt: read.UTC()})
	if err != nil {
		return nil, err
	}
	return r.unwrap(ctx, dk, read) // another process's key, if it made one first
}

// Destroy destroys the data key named id for good and forgets it here; other
// processes forget it within their TTL.
func (r *Keyring) Destroy(ctx context.Context, id string) (DataKey, error) {
	r.mu.Lock()
	delete(r.cache, id)
	r.mu.Unlock()
	return r.Store.DestroyKey(ctx, id, time.Now().UTC())
}

// Rotate rewraps every live data key that a master key other than the current one
// wrapped, and returns how many it rewrapped. Sealed data is not touched: the data
// keys stay the same. A key it cannot unwrap stops it with an error; run it again once
// the master key that wrapped it is among the previous ones.
func (r *Keyring) Rotate(ctx context.Context) (int, error) {
	current, n, after := r.Wrapper.Current(), 0, ""
	for {
		page, err := r.Store.ListKeys(ctx, after, 100)
		if err != nil {
			return n, err
		}
		if len(page) == 0 {
			return n, nil
		}
		for _, dk := range page {
			after = dk.ID
			if dk.DestroyedAt != nil || dk.Master == current {
				continue
			}
			raw, err := r.Wrapper.Unwrap(ctx, dk.ID, dk.Wrapped, dk.Master)
			if err != nil {
				return n, err
			}
			wrapped, err := r.Wrapper.Wrap(ctx, dk.ID, raw)
			if err != nil {
				return n, fmt.Errorf("wrap key %s: %w", dk.ID, err)
			}
			ok, err := r.Store.RewrapKey(ctx, dk.ID, dk.Master, wrapped, current)
			if err != nil {
				return n, err
			}
			if ok {
				n++
			}
		}
	}
}

// unwrap opens a stored key and caches it until TTL after read, when it was read from
// the store: however long unwrapping took, a key destroyed after that read is
// forgotten here within TTL of its destruction.
func (r *Keyring) unwrap(ctx context.Context, dk DataKey, read time.Time) (*Key, error) {
	if dk.DestroyedAt != nil {
		return nil, fmt.Errorf("key %s: %w on %s", dk.ID, ErrDestroyed, dk.DestroyedAt.UTC().Format(time.RFC3339))
	}
	raw, err := r.Wrapper.Unwrap(ctx, dk.ID, dk.Wrapped, dk.Master)
	if err != nil {
		return nil, err
	}
	k, err := newKey(dk.ID, raw)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", dk.ID, err)
	}
	r.remember(k, read)
	return k, nil
}

// CacheTTL is how long the keyring keeps an unwrapped key: TTL, or DefaultTTL.
func (r *Keyring) CacheTTL() time.Duration {
	if r.TTL > 0 {
		return r.TTL
	}
	return DefaultTTL
}

func (r *Keyring) cached(id string) *Key {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.cache[id]
	if !ok || time.Now().After(c.until) {
		return nil
	}
	return c.key
}

func (r *Keyring) remember(k *Key, read time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cache == nil {
		r.cache = map[string]cached{}
	}
	now := time.Now()
	if len(r.cache) >= maxCached {
		for id, c := range r.cache {
			if now.After(c.until) {
				delete(r.cache, id)
			}
		}
		for id := range r.cache { // still full: forget any one
			if len(r.cache) < maxCached {
				break
			}
			delete(r.cache, id)
		}
	}
	r.cache[k.ID] = cached{key: k, until: read.Add(r.CacheTTL())}
}
