package mongostore

import (
	"cmp"
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

// memoryFactDoc is one of a user's memory facts.
type memoryFactDoc struct {
	ID        string    `bson:"_id"`
	Owner     string    `bson:"owner"`
	CaseID    string    `bson:"case_id"`
	Text      string    `bson:"text"`
	Status    string    `bson:"status"`
	CreatedAt time.Time `bson:"created_at"`
	UpdatedAt time.Time `bson:"updated_at"`
}

func (d memoryFactDoc) fact() store.MemoryFact {
	return store.MemoryFact{ID: d.ID, Owner: d.Owner, CaseID: d.CaseID, Text: d.Text, Status: d.Status,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

// AddMemoryFact inserts f unless its ID is stored, after counting the owner's facts.
func (s *Store) AddMemoryFact(ctx context.Context, f store.MemoryFact) (bool, error) {
	n, err := s.memoryFacts.CountDocuments(ctx, bson.M{"owner": f.Owner})
	if err != nil {
		return false, fmt.Errorf("count memory facts: %w", err)
	}
	if n >= store.MaxMemoryFacts {
		if _, err := s.GetMemoryFact(ctx, f.Owner, f.ID); err == nil {
			return false, nil
		}
		return false, fmt.Errorf("%w: %s has %d", store.ErrTooManyFacts, f.Owner, n)
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	_, err = s.memoryFacts.InsertOne(ctx, memoryFactDoc{ID: f.ID, Owner: f.Owner, CaseID: f.CaseID, Text: f.Text,
		Status: f.Status, CreatedAt: now, UpdatedAt: now})
	if mongo.IsDuplicateKeyError(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store memory fact: %w", err)
	}
	return true, nil
}

// ListMemoryFacts reads the owner's facts, oldest first.
func (s *Store) ListMemoryFacts(ctx context.Context, owner string) ([]store.MemoryFact, error) {
	docs, err := findAll[memoryFactDoc](ctx, s.memoryFacts, bson.M{"owner": owner}, "memory facts of "+owner)
	if err != nil {
		return nil, err
	}
	out := make([]store.MemoryFact, len(docs))
	for i, d := range docs {
		out[i] = d.fact()
	}
	slices.SortFunc(out, func(a, b store.MemoryFact) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// GetMemoryFact reads one of the owner's facts.
func (s *Store) GetMemoryFact(ctx context.Context, owner, id string) (store.MemoryFact, error) {
	d, err := findOne[memoryFactDoc](ctx, s.memoryFacts, bson.M{"_id": id, "owner": owner}, "memory fact "+id)
	if err != nil {
		return store.MemoryFact{}, err
	}
	return d.fact(), nil
}

// UpdateMemoryFact sets the changed fields of one of the owner's facts.
func (s *Store) UpdateMemoryFact(ctx context.Context, owner, id string, change store.FactChange) (store.MemoryFact, error) {
	set := bson.M{"updated_at": time.Now().UTC().Truncate(time.Millisecond)}
	if change.Text != "" {
		set["text"] = change.Text
	}
	if change.Status != "" {
		set["status"] = change.Status
	}
	var d memoryFactDoc
	err := s.memoryFacts.FindOneAndUpdate(ctx, bson.M{"_id": id, "owner": owner}, bson.M{"$set": set},
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return store.MemoryFact{}, fmt.Errorf("memory fact %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.MemoryFact{}, fmt.Errorf("update memory fact %s: %w", id, err)
	}
	return d.fact(), nil
}

// DeleteMemoryFact deletes one of the owner's facts.
func (s *Store) DeleteMemoryFact(ctx context.Context, owner, id string) error {
	res, err := s.memoryFacts.DeleteOne(ctx, bson.M{"_id": id, "owner": owner})
	if err != nil {
		return fmt.Errorf("delete memory fact %s: %w", id, err)
	}
	if res.DeletedCount == 0 {
		return fmt.Errorf("memory fact %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// EraseMemoryFacts deletes the owner's facts.
func (s *Store) EraseMemoryFacts(ctx context.Context, owner string) (int, error) {
	res, err := s.memoryFacts.DeleteMany(ctx, bson.M{"owner": owner})
	if err != nil {
		return 0, fmt.Errorf("erase memory facts: %w", err)
	}
	return int(res.DeletedCount), nil
}

// EraseCaseProposals deletes the facts still proposed from the case.
func (s *Store) EraseCaseProposals(ctx context.Context, caseID string) (int, error) {
	res, err := s.memoryFacts.DeleteMany(ctx, bson.M{"case_id": caseID, "status": store.FactProposed})
	if err != nil {
		return 0, fmt.Errorf("erase the case's proposed memory facts: %w", err)
	}
	return int(res.DeletedCount), nil
}
