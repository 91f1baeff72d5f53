package mongostore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// memoryDoc is a user's memory as stored; its ID is the user's store.OwnerID.
type memoryDoc struct {
	UserID    string    `bson:"_id"`
	Text      string    `bson:"text"`
	UpdatedAt time.Time `bson:"updated_at"`
}

// GetMemory returns a user's memory, empty when there is none.
func (s *Store) GetMemory(ctx context.Context, owner string) (store.Memory, error) {
	d, err := findOne[memoryDoc](ctx, s.memory, bson.M{"_id": owner}, "memory")
	if errors.Is(err, store.ErrNotFound) {
		return store.Memory{UserID: owner}, nil
	}
	if err != nil {
		return store.Memory{}, err
	}
	return store.Memory{UserID: d.UserID, Text: d.Text, UpdatedAt: d.UpdatedAt}, nil
}

// PutMemory replaces a user's memory.
func (s *Store) PutMemory(ctx context.Context, owner, text string) (store.Memory, error) {
	d := memoryDoc{UserID: owner, Text: text, UpdatedAt: time.Now().UTC()}
	_, err := s.memory.ReplaceOne(ctx, bson.M{"_id": owner}, d, options.Replace().SetUpsert(true))
	if err != nil {
		return store.Memory{}, fmt.Errorf("store memory: %w", err)
	}
	return store.Memory{UserID: owner, Text: text, UpdatedAt: d.UpdatedAt}, nil
}

// unclaimed prefixes the memories that migrateMemories could not give an owner; the
// pattern of its query skips them, and those under a store.OwnerID.
const unclaimed = "unclaimed:"

// migrateMemories moves each memory stored under a bare subject, as they were before
// memories belonged to (organization, subject), to its store.OwnerID: the one
// organization that the subject's cases name (or none). A subject whose cases name
// several organizations, or who has no case, is ambiguous: the memory moves to
// "unclaimed:<subject>", where nobody reads it, rather than to someone who may be
// another person. A memory already written under the new ID wins over the old one.
func (s *Store) migrateMemories(ctx context.Context) error {
	docs, err := findAll[memoryDoc](ctx, s.memory, bson.M{"_id": bson.M{"$not": bson.Regex{Pattern: "^(user|org|unclaimed):"}}}, "memories to migrate")
	if err != nil {
		return fmt.Errorf("migrate memories: %w", err)
	}
	for _, d := range docs {
		subject := d.UserID
		orgs, err := s.orgsOf(ctx, subject)
		if err != nil {
			return err
		}
		d.UserID = unclaimed + subject
		if len(orgs) == 1 {
			d.UserID = store.OwnerID(orgs[0], subject)
		}
		if _, err := s.memory.InsertOne(ctx, d); err != nil && !mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("migrate the memory of %s: %w", subject, err)
		}
		if _, err := s.memory.DeleteOne(ctx, bson.M{"_id": subject}); err != nil {
			return fmt.Errorf("migrate the memory of %s: %w", subject, err)
		}
	}
	return nil
}

// orgsOf returns the distinct organizations of a subject's cases ("" for none).
func (s *Store) orgsOf(ctx context.Context, subject string) ([]string, error) {
	docs, err := findAll[struct {
		OrgID string `bson:"org_id"`
	}](ctx, s.cases, bson.M{"user_id": subject}, "the cases of "+subject, options.Find().SetProjection(bson.M{"org_id": 1}))
	if err != nil {
		return nil, err
	}
	var orgs []string
	for _, d := range docs {
		if !slices.Contains(orgs, d.OrgID) {
			orgs = append(orgs, d.OrgID)
		}
	}
	return orgs, nil
}
