package firestore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// memoryFactData is one of a user's memory facts; ID repeats the document's.
type memoryFactData struct {
	ID        string    `firestore:"id"`
	Owner     string    `firestore:"owner"`
	CaseID    string    `firestore:"case_id"`
	Text      string    `firestore:"text"`
	Status    string    `firestore:"status"`
	CreatedAt time.Time `firestore:"created_at"`
	UpdatedAt time.Time `firestore:"updated_at"`
}

func (d memoryFactData) fact() store.MemoryFact {
	return store.MemoryFact{ID: d.ID, Owner: d.Owner, CaseID: d.CaseID, Text: d.Text, Status: d.Status,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

// AddMemoryFact creates f's document unless it exists, after counting the owner's
// facts.
func (s *Store) AddMemoryFact(ctx context.Context, f store.MemoryFact) (bool, error) {
	n, err := count(ctx, s.client.Collection(MemoryFactsCollection).Where("owner", "==", f.Owner))
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
	_, err = s.doc(MemoryFactsCollection, f.ID).Create(ctx, memoryFactData{ID: f.ID, Owner: f.Owner, CaseID: f.CaseID,
		Text: f.Text, Status: f.Status, CreatedAt: now, UpdatedAt: now})
	if exists(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store memory fact: %w", err)
	}
	return true, nil
}

// ListMemoryFacts reads the owner's facts (at most store.MaxMemoryFacts and a few),
// sorted here, so that the query needs no composite index.
func (s *Store) ListMemoryFacts(ctx context.Context, owner string) ([]store.MemoryFact, error) {
	docs, err := all[memoryFactData](ctx, s.client.Collection(MemoryFactsCollection).Where("owner", "==", owner))
	if err != nil {
		return nil, fmt.Errorf("list memory facts: %w", err)
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
	d, err := read[memoryFactData](ctx, nil, s.doc(MemoryFactsCollection, id), "memory fact "+id)
	if err == nil && d.Owner != owner {
		err = fmt.Errorf("memory fact %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.MemoryFact{}, err
	}
	return d.fact(), nil
}

// UpdateMemoryFact changes one of the owner's facts in a transaction.
func (s *Store) UpdateMemoryFact(ctx context.Context, owner, id string, change store.FactChange) (store.MemoryFact, error) {
	ref := s.doc(MemoryFactsCollection, id)
	var out store.MemoryFact
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		d, err := read[memoryFactData](ctx, tx, ref, "memory fact "+id)
		if err == nil && d.Owner != owner {
			err = fmt.Errorf("memory fact %s: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if change.Text != "" {
			d.Text = change.Text
		}
		if change.Status != "" {
			d.Status = change.Status
		}
		d.UpdatedAt = time.Now().UTC().Truncate(time.Millisecond)
		out = d.fact()
		return tx.Set(ref, d)
	})
	if err != nil {
		return store.MemoryFact{}, err
	}
	return out, nil
}

// DeleteMemoryFact deletes one of the owner's facts in a transaction.
func (s *Store) DeleteMemoryFact(ctx context.Context, owner, id string) error {
	ref := s.doc(MemoryFactsCollection, id)
	return s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		d, err := read[memoryFactData](ctx, tx, ref, "memory fact "+id)
		if err == nil && d.Owner != owner {
			err = fmt.Errorf("memory fact %s: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		return tx.Delete(ref)
	})
}

// EraseMemoryFacts deletes the owner's facts.
func (s *Store) EraseMemoryFacts(ctx context.Context, owner string) (int, error) {
	return s.deleteFacts(ctx, s.client.Collection(MemoryFactsCollection).Where("owner", "==", owner), "")
}

// EraseCaseProposals deletes the facts still proposed from the case.
func (s *Store) EraseCaseProposals(ctx context.Context, caseID string) (int, error) {
	return s.deleteFacts(ctx, s.client.Collection(MemoryFactsCollection).Where("case_id", "==", caseID), store.FactProposed)
}

// deleteFacts deletes the facts q finds, those of the status only unless it is empty,
// and counts them.
func (s *Store) deleteFacts(ctx context.Context, q fs.Query, status string) (int, error) {
	snaps, err := q.Documents(ctx).GetAll()
	if err != nil {
		return 0, fmt.Errorf("list memory facts: %w", err)
	}
	n := 0
	for _, snap := range snaps {
		if st, _ := snap.Data()["status"].(string); status != "" && st != status {
			continue
		}
		if _, err := snap.Ref.Delete(ctx); err != nil && !notFound(err) {
			return n, fmt.Errorf("erase %s: %w", snap.Ref.Path, err)
		}
		n++
	}
	return n, nil
}
