package firestore

import (
	"context"
	"fmt"
	"time"

	"github.com/lexflow/lexflow/store"
)

// disclosureData is an organization's disclosure setting as stored, in a document
// named after the organization. Its maps are written even when empty: the emulator's
// Set keeps a field the new document leaves out.
type disclosureData struct {
	Texts     map[string]string `firestore:"texts"`
	On        map[string]bool   `firestore:"on"`
	SetBy     string            `firestore:"set_by"`
	UpdatedAt time.Time         `firestore:"updated_at"`
}

// GetDisclosure returns an organization's disclosure setting, or store.ErrNotFound.
func (s *Store) GetDisclosure(ctx context.Context, org string) (store.Disclosure, error) {
	d, err := read[disclosureData](ctx, nil, s.doc(DisclosuresCollection, org), "disclosure of "+org)
	if err != nil {
		return store.Disclosure{}, err
	}
	return store.Disclosure{Org: org, Texts: d.Texts, On: d.On, SetBy: d.SetBy, UpdatedAt: d.UpdatedAt}, nil
}

// PutDisclosure replaces an organization's disclosure setting.
func (s *Store) PutDisclosure(ctx context.Context, d store.Disclosure) error {
	data := disclosureData{Texts: orEmpty(d.Texts), On: orEmpty(d.On), SetBy: d.SetBy, UpdatedAt: d.UpdatedAt.UTC()}
	if _, err := s.doc(DisclosuresCollection, d.Org).Set(ctx, data); err != nil {
		return fmt.Errorf("put disclosure: %w", err)
	}
	return nil
}

// orEmpty is m, or an empty map for nil, which Firestore would store as null.
func orEmpty[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return m
}
