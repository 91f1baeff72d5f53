package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// disclosureDoc is an organization's disclosure setting as stored, under its
// organization's ID.
type disclosureDoc struct {
	Org       string            `bson:"_id"`
	Texts     map[string]string `bson:"texts,omitempty"`
	On        map[string]bool   `bson:"on,omitempty"`
	SetBy     string            `bson:"set_by"`
	UpdatedAt time.Time         `bson:"updated_at"`
}

// GetDisclosure returns an organization's disclosure setting, or store.ErrNotFound.
func (s *Store) GetDisclosure(ctx context.Context, org string) (store.Disclosure, error) {
	d, err := findOne[disclosureDoc](ctx, s.disclosures, bson.M{"_id": org}, "disclosure of "+org)
	if err != nil {
		return store.Disclosure{}, err
	}
	return store.Disclosure{Org: d.Org, Texts: d.Texts, On: d.On, SetBy: d.SetBy, UpdatedAt: d.UpdatedAt}, nil
}

// PutDisclosure replaces an organization's disclosure setting.
func (s *Store) PutDisclosure(ctx context.Context, d store.Disclosure) error {
	doc := disclosureDoc{Org: d.Org, Texts: d.Texts, On: d.On, SetBy: d.SetBy, UpdatedAt: d.UpdatedAt.UTC()}
	if _, err := s.disclosures.ReplaceOne(ctx, bson.M{"_id": d.Org}, doc, options.Replace().SetUpsert(true)); err != nil {
		return fmt.Errorf("put disclosure: %w", err)
	}
	return nil
}
