// Package keys holds the data keys that encrypt clients' data: each case has its own,
// each user one for what they keep across cases, each tenant one for its texts of no
// case, and the system one for the rest. Data
// keys are stored wrapped by a master key (envelope encryption): a Wrapper seals and
// opens them, a Keyring makes, caches, destroys and rewraps them, and a Key seals and
// opens data with AES-256-GCM.
package keys

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// Key IDs.
const (
	// SystemKeyID names the key of what belongs to no case or user.
	SystemKeyID  = "system"
	casePrefix   = "case:"
	userPrefix   = "user:"
	tenantPrefix = "tenant:"
)

// TenantKeyID names the data key of a tenant's texts that belong to no case (its
// queries and citation checks), by its schemas.TenantKey ("org:acme", "user:ana").
func TenantKeyID(tenant string) string { return tenantPrefix + tenant }

// TenantOfKey is the tenant whose key id names, or "" for another key.
func TenantOfKey(id string) string {
	if len(id) > len(tenantPrefix) && id[:len(tenantPrefix)] == tenantPrefix {
		return id[len(tenantPrefix):]
	}
	return ""
}

// CaseKeyID names a case's data key.
func CaseKeyID(caseID string) string { return casePrefix + caseID }

// UserKeyID names the data key of a user's own data (their memory), by their
// store.OwnerID.
func UserKeyID(owner string) string { return userPrefix + owner }

// CaseOfKey is the case whose key id names, or "" for another key.
func CaseOfKey(id string) string {
	if len(id) > len(casePrefix) && id[:len(casePrefix)] == casePrefix {
		return id[len(casePrefix):]
	}
	return ""
}

// KeySize is the size of data and master keys: AES-256.
const KeySize = 32

// ErrDecrypt means sealed data did not open: another key sealed it, or it was altered.
var ErrDecrypt = errors.New("cannot decrypt")

// Key is an unwrapped data key.
type Key struct {
	ID   string
	aead cipher.AEAD
}

// newKey returns the Key named id for raw key bytes.
func newKey(id string, raw []byte) (*Key, error) {
	aead, err := newAEAD(raw)
	if err != nil {
		return nil, err
	}
	return &Key{ID: id, aead: aead}, nil
}

func newAEAD(raw []byte) (cipher.AEAD, error) {
	if len(raw) != KeySize {
		return nil, fmt.Errorf("a key is %d bytes, not %d", KeySize, len(raw))
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Seal encrypts plain, authenticating aad with it, under a fresh random nonce, and
// returns the nonce followed by the ciphertext.
func (k *Key) Seal(plain, aad []byte) []byte { return seal(k.aead, plain, aad) }

// Open decrypts what Seal returned for the same aad, or fails with ErrDecrypt.
func (k *Key) Open(sealed, aad []byte) ([]byte, error) { return open(k.aead, sealed, aad) }

func seal(aead cipher.AEAD, plain, aad []byte) []byte {
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return aead.Seal(nonce, nonce, plain, aad)
}

func open(aead cipher.AEAD, sealed, aad []byte) ([]byte, error) {
	n := aead.NonceSize()
	if len(sealed) < n+aead.Overhead() {
		return nil, fmt.Errorf("%w: %d bytes is too short", ErrDecrypt, len(sealed))
	}
	plain, err := aead.Open(nil, sealed[:n], sealed[n:], aad)
	if err != nil {
		return nil, ErrDecrypt
	}
	return plain, nil
}
