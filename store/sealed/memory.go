package sealed

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// GetMemory opens a user's memory, sealed under the user's own key: it outlives any
// one of their cases.
func (s *Store) GetMemory(ctx context.Context, owner string) (store.Memory, error) {
	m, err := s.Store.GetMemory(ctx, owner)
	if err != nil || m.Text == "" {
		return m, err
	}
	if m.Text, err = openString(s.opener(ctx, keys.UserKeyID(owner)), m.Text); err != nil {
		return store.Memory{}, fmt.Errorf("memory of %s: %w", owner, err)
	}
	return m, nil
}

// PutMemory seals the text.
func (s *Store) PutMemory(ctx context.Context, owner, text string) (store.Memory, error) {
	k, err := s.Keys.Ensure(ctx, keys.UserKeyID(owner))
	if err != nil {
		return store.Memory{}, err
	}
	m, err := s.Store.PutMemory(ctx, owner, sealString(k, text))
	if err != nil {
		return store.Memory{}, err
	}
	m.Text = text
	return m, nil
}
