package firestore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// deadlineData is a deadline as stored, in the top-level deadlines collection. Its
// computation is kept as the JSON of store.DeadlineComputation: it is read whole and
// never queried.
type deadlineData struct {
	ID          string         `firestore:"id"`
	CaseID      string         `firestore:"case_id"`
	TenantID    string         `firestore:"tenant_id,omitempty"`
	Owner       string         `firestore:"owner"`
	Title       string         `firestore:"title"`
	Source      deadlineSource `firestore:"source"`
	Computation string         `firestore:"computation,omitempty"`
	Due         string         `firestore:"due"`
	Zone        string         `firestore:"zone"`
	EndsAt      time.Time      `firestore:"ends_at"`
	Responsible string         `firestore:"responsible"`
	Reminders   []string       `firestore:"reminders"`
	Status      string         `firestore:"status"`
	ProposedBy  string         `firestore:"proposed_by,omitempty"`
	ConfirmedBy string         `firestore:"confirmed_by,omitempty"`
	Rev         int64          `firestore:"rev"`
	CreatedAt   time.Time      `firestore:"created_at"`
	UpdatedAt   time.Time      `firestore:"updated_at"`
}

// deadlineSource is schemas.DeadlineSource as stored.
type deadlineSource struct {
	Kind      string `firestore:"kind"`
	Reference string `firestore:"reference,omitempty"`
	Date      string `firestore:"date,omitempty"`
}

func deadlineDataOf(d store.Deadline) (deadlineData, error) {
	data := deadlineData{ID: d.ID, CaseID: d.CaseID, TenantID: d.TenantID, Owner: d.Owner, Title: d.Title,
		Source: deadlineSource(d.Source), Due: d.Due, Zone: d.Zone, EndsAt: d.EndsAt.UTC(), Responsible: d.Responsible,
		Reminders: d.Reminders, Status: d.Status, ProposedBy: d.ProposedBy, ConfirmedBy: d.ConfirmedBy, Rev: d.Rev,
		CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC()}
	if d.Computation != nil {
		raw, err := json.Marshal(d.Computation)
		if err != nil {
			return deadlineData{}, fmt.Errorf("encode computation of deadline %s: %w", d.ID, err)
		}
		data.Computation = string(raw)
	}
	return data, nil
}

func (data deadlineData) deadline() (store.Deadline, error) {
	d := store.Deadline{ID: data.ID, CaseID: data.CaseID, TenantID: data.TenantID, Owner: data.Owner, Title: data.Title,
		Source: schemas.DeadlineSource(data.Source), Due: data.Due, Zone: data.Zone, EndsAt: data.EndsAt, Responsible: data.Responsible,
		Reminders: data.Reminders, Status: data.Status, ProposedBy: data.ProposedBy, ConfirmedBy: data.ConfirmedBy, Rev: data.Rev,
		CreatedAt: data.CreatedAt, UpdatedAt: data.UpdatedAt}
	if data.Computation != "" {
		d.Computation = new(store.DeadlineComputation)
		if err := json.Unmarshal([]byte(data.Computation), d.Computation); err != nil {
			return store.Deadline{}, fmt.Errorf("decode computation of deadline %s: %w", data.ID, err)
		}
	}
	return d, nil
}

// deadlineDoc is a deadline's document.
func (s *Store) deadlineDoc(id string) *fs.DocumentRef { return s.doc(DeadlinesCollection, id) }

// CreateDeadline creates d's document at revision 1 unless it exists, and returns the
// stored deadline.
func (s *Store) CreateDeadline(ctx context.Context, d store.Deadline) (store.Deadline, error) {
	now := time.Now().UTC()
	d.Rev, d.CreatedAt, d.UpdatedAt = 1, now, now
	data, err := deadlineDataOf(d)
	if err != nil {
		return store.Deadline{}, err
	}
	if _, err := s.deadlineDoc(d.ID).Create(ctx, data); err != nil && !exists(err) {
		return store.Deadline{}, fmt.Errorf("store deadline: %w", err)
	}
	return s.GetDeadline(ctx, d.CaseID, d.ID)
}

// GetDeadline reads a deadline, and finds none where it is another case's.
func (s *Store) GetDeadline(ctx context.Context, caseID, id string) (store.Deadline, error) {
	return s.getDeadline(ctx, nil, caseID, id)
}

func (s *Store) getDeadline(ctx context.Context, tx *fs.Transaction, caseID, id string) (store.Deadline, error) {
	data, err := read[deadlineData](ctx, tx, s.deadlineDoc(id), "deadline "+id)
	if err != nil {
		return store.Deadline{}, err
	}
	if data.CaseID != caseID {
		return store.Deadline{}, fmt.Errorf("deadline %s: %w", id, store.ErrNotFound)
	}
	return data.deadline()
}

// ListDeadlines returns a case's deadlines, soonest first.
func (s *Store) ListDeadlines(ctx context.Context, caseID string) ([]store.Deadline, error) {
	return s.findDeadlines(ctx, s.soonest(s.client.Collection(DeadlinesCollection).Where("case_id", "==", caseID)))
}

// UserDeadlines reads the deadlines owner owns and those they answer for, a query
// each (Firestore's OR would need both indexes anyway), and merges them soonest first.
func (s *Store) UserDeadlines(ctx context.Context, owner string, limit int) ([]store.Deadline, error) {
	limit = min(max(limit, 1), store.MaxUserDeadlines)
	var out []store.Deadline
	for _, field := range []string{"owner", "responsible"} {
		ds, err := s.findDeadlines(ctx, s.soonest(s.client.Collection(DeadlinesCollection).Where(field, "==", owner)).Limit(limit))
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			if !slices.ContainsFunc(out, func(o store.Deadline) bool { return o.ID == d.ID }) {
				out = append(out, d)
			}
		}
	}
	slices.SortFunc(out, func(a, b store.Deadline) int {
		if c := a.EndsAt.Compare(b.EndsAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out[:min(len(out), limit)], nil
}

// soonest orders q's deadlines soonest first.
func (s *Store) soonest(q fs.Query) fs.Query {
	return q.OrderBy("ends_at", fs.Asc).OrderBy("id", fs.Asc)
}

func (s *Store) findDeadlines(ctx context.Context, q fs.Query) ([]store.Deadline, error) {
	docs, err := all[deadlineData](ctx, q)
	if err != nil {
		return nil, fmt.Errorf("read deadlines: %w", err)
	}
	out := make([]store.Deadline, 0, len(docs))
	for _, data := range docs {
		d, err := data.deadline()
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// UpdateDeadline writes d in a transaction that finds the stored deadline at d.Rev.
func (s *Store) UpdateDeadline(ctx context.Context, d store.Deadline) (store.Deadline, error) {
	ref := s.deadlineDoc(d.ID)
	var out store.Deadline
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		cur, err := s.getDeadline(ctx, tx, d.CaseID, d.ID)
		if err != nil {
			return err
		}
		if cur.Rev != d.Rev {
			return fmt.Errorf("deadline %s at revision %d: %w", d.ID, d.Rev, store.ErrVersionConflict)
		}
		d.TenantID, d.Owner, d.CreatedAt = cur.TenantID, cur.Owner, cur.CreatedAt
		d.Rev, d.UpdatedAt = cur.Rev+1, time.Now().UTC()
		data, err := deadlineDataOf(d)
		if err != nil {
			return err
		}
		if out, err = data.deadline(); err != nil {
			return err
		}
		return tx.Set(ref, data)
	})
	if err != nil {
		return store.Deadline{}, err
	}
	return out, nil
}

// DeleteDeadline deletes a case's deadline.
func (s *Store) DeleteDeadline(ctx context.Context, caseID, id string) error {
	ref := s.deadlineDoc(id)
	return s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		if _, err := s.getDeadline(ctx, tx, caseID, id); err != nil {
			return err
		}
		return tx.Delete(ref)
	})
}
