package keys

import (
	"context"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Wrapper wraps data keys with a master key that never leaves it: a local master key
// (Local), or a cloud KMS behind the same three methods.
type Wrapper interface {
	// Current names the master key Wrap uses.
	Current() string
	// Wrap seals a data key named id with the current master key.
	Wrap(ctx context.Context, id string, key []byte) ([]byte, error)
	// Unwrap opens a data key named id that master wrapped.
	Unwrap(ctx context.Context, id string, wrapped []byte, master string) ([]byte, error)
}

// MinMasterSecret is the shortest master secret Local accepts, in characters.
const MinMasterSecret = 32

// Local is a Wrapper whose master keys are derived from secrets it is given: the
// current one wraps, and the previous ones still unwrap the data keys they wrapped
// until those are rewrapped (Keyring.Rotate).
type Local struct {
	current string
	masters map[string]cipher.AEAD
}

var _ Wrapper = (*Local)(nil)

// NewLocal returns a Local that wraps with the master key derived from current and
// unwraps with it or any of previous. Each secret has at least MinMasterSecret
// characters, like the 64 hexadecimal digits of `openssl rand -hex 32`.
func NewLocal(current string, previous ...string) (*Local, error) {
	l := &Local{masters: map[string]cipher.AEAD{}}
	for i, secret := range append([]string{current}, previous...) {
		if len(secret) < MinMasterSecret {
			which := "the current master secret"
			if i > 0 {
				which = fmt.Sprintf("previous master secret %d", i)
			}
			return nil, fmt.Errorf("%s has %d characters; a master secret has at least %d", which, len(secret), MinMasterSecret)
		}
		raw, err := hkdf.Key(sha256.New, []byte(secret), nil, "lexflow master key", KeySize)
		if err != nil {
			return nil, err
		}
		aead, err := newAEAD(raw)
		if err != nil {
			return nil, err
		}
		id := MasterID(secret)
		if i == 0 {
			l.current = id
		}
		l.masters[id] = aead
	}
	return l, nil
}

// MasterID names the master key derived from secret without revealing it.
func MasterID(secret string) string {
	sum := sha256.Sum256([]byte("lexflow master key id\x00" + secret))
	return "local:" + hex.EncodeToString(sum[:8])
}

// Current names the master key Wrap uses.
func (l *Local) Current() string { return l.current }

// Wrap seals key with the current master key, bound to its ID.
func (l *Local) Wrap(_ context.Context, id string, key []byte) ([]byte, error) {
	return seal(l.masters[l.current], key, []byte(id)), nil
}

// Unwrap opens a key that master wrapped.
func (l *Local) Unwrap(_ context.Context, id string, wrapped []byte, master string) ([]byte, error) {
	aead, ok := l.masters[master]
	if !ok {
		return nil, fmt.Errorf("key %s is wrapped by master key %s, which this process was not given (LEXFLOW_MASTER_KEY_PREVIOUS)", id, master)
	}
	key, err := open(aead, wrapped, []byte(id))
	if err != nil {
		return nil, fmt.Errorf("unwrap key %s: %w", id, err)
	}
	return key, nil
}
