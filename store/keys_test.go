package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lexflow/lexflow/internal/keys"
)

// TestKeyringTellsNotFound checks that a keyring, which does not import this package,
// tells ErrNotFound apart however it is wrapped, and only it.
func TestKeyringTellsNotFound(t *testing.T) {
	wrapped := fmt.Errorf("get key case:1: %w", ErrNotFound)
	if !keys.IsNotFound(wrapped) || !errors.Is(wrapped, ErrNotFound) {
		t.Errorf("IsNotFound(%v) = false, or errors.Is lost it", wrapped)
	}
	for _, err := range []error{nil, errors.New("not found"), ErrVersionConflict} {
		if keys.IsNotFound(err) || errors.Is(err, ErrNotFound) {
			t.Errorf("IsNotFound(%v) = true", err)
		}
	}
}
