package sealed

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// AddMemoryFact seals the fact's text under its user's own key, like their memory.
func (s *Store) AddMemoryFact(ctx context.Context, f store.MemoryFact) (bool, error) {
	k, err := s.Keys.Ensure(ctx, keys.UserKeyID(f.Owner))
	if err != nil {
		return false, err
	}
	f.Text = sealString(k, f.Text)
	return s.Store.AddMemoryFact(ctx, f)
}

// ListMemoryFacts opens the facts' texts.
func (s *Store) ListMemoryFacts(ctx context.Context, owner string) ([]store.MemoryFact, error) {
	facts, err := s.Store.ListMemoryFacts(ctx, owner)
	if err != nil {
		return nil, err
	}
	o := s.opener(ctx, keys.UserKeyID(owner))
	for i := range facts {
		if facts[i].Text, err = openString(o, facts[i].Text); err != nil {
			return nil, fmt.Errorf("memory fact %s: %w", facts[i].ID, err)
		}
	}
	return facts, nil
}

// GetMemoryFact opens the fact's text.
func (s *Store) GetMemoryFact(ctx context.Context, owner, id string) (store.MemoryFact, error) {
	f, err := s.Store.GetMemoryFact(ctx, owner, id)
	if err != nil {
		return f, err
	}
	return openFact(s.opener(ctx, keys.UserKeyID(owner)), f)
}

// UpdateMemoryFact seals a new text, and opens the fact it returns.
func (s *Store) UpdateMemoryFact(ctx context.Context, owner, id string, change store.FactChange) (store.MemoryFact, error) {
	k, err := s.Keys.Ensure(ctx, keys.UserKeyID(owner))
	if err != nil {
		return store.MemoryFact{}, err
	}
	if change.Text != "" {
		change.Text = sealString(k, change.Text)
	}
	f, err := s.Store.UpdateMemoryFact(ctx, owner, id, change)
	if err != nil {
		return f, err
	}
	return openFact(openerOf(k), f)
}

// openFact opens f's text.
func openFact(o *opener, f store.MemoryFact) (store.MemoryFact, error) {
	var err error
	if f.Text, err = openString(o, f.Text); err != nil {
		return store.MemoryFact{}, fmt.Errorf("memory fact %s: %w", f.ID, err)
	}
	return f, nil
}
