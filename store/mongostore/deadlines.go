package mongostore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// deadlineDoc is a deadline as stored. Its computation is kept as the JSON of
// store.DeadlineComputation: it is read whole and never queried.
type deadlineDoc struct {
	ID          string         `bson:"_id"`
	CaseID      string         `bson:"case_id"`
	TenantID    string         `bson:"tenant_id,omitempty"`
	Owner       string         `bson:"owner"`
	Title       string         `bson:"title"`
	Source      deadlineSource `bson:"source"`
	Computation string         `bson:"computation,omitempty"`
	Due         string         `bson:"due"`
	Zone        string         `bson:"zone"`
	EndsAt      time.Time      `bson:"ends_at"`
	Responsible string         `bson:"responsible"`
	Reminders   []string       `bson:"reminders"`
	Status      string         `bson:"status"`
	ProposedBy  string         `bson:"proposed_by,omitempty"`
	ConfirmedBy string         `bson:"confirmed_by,omitempty"`
	Rev         int64          `bson:"rev"`
	CreatedAt   time.Time      `bson:"created_at"`
	UpdatedAt   time.Time      `bson:"updated_at"`
}

// deadlineSource is schemas.DeadlineSource as stored.
type deadlineSource struct {
	Kind      string `bson:"kind"`
	Reference string `bson:"reference,omitempty"`
	Date      string `bson:"date,omitempty"`
}

func deadlineDocOf(d store.Deadline) (deadlineDoc, error) {
	doc := deadlineDoc{ID: d.ID, CaseID: d.CaseID, TenantID: d.TenantID, Owner: d.Owner, Title: d.Title,
		Source: deadlineSource(d.Source), Due: d.Due, Zone: d.Zone, EndsAt: d.EndsAt.UTC(), Responsible: d.Responsible,
		Reminders: d.Reminders, Status: d.Status, ProposedBy: d.ProposedBy, ConfirmedBy: d.ConfirmedBy, Rev: d.Rev,
		CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC()}
	if d.Computation != nil {
		raw, err := json.Marshal(d.Computation)
		if err != nil {
			return deadlineDoc{}, fmt.Errorf("encode computation of deadline %s: %w", d.ID, err)
		}
		doc.Computation = string(raw)
	}
	return doc, nil
}

func (doc deadlineDoc) toDeadline() (store.Deadline, error) {
	d := store.Deadline{ID: doc.ID, CaseID: doc.CaseID, TenantID: doc.TenantID, Owner: doc.Owner, Title: doc.Title,
		Source: schemas.DeadlineSource(doc.Source), Due: doc.Due, Zone: doc.Zone, EndsAt: doc.EndsAt, Responsible: doc.Responsible,
		Reminders: doc.Reminders, Status: doc.Status, ProposedBy: doc.ProposedBy, ConfirmedBy: doc.ConfirmedBy, Rev: doc.Rev,
		CreatedAt: doc.CreatedAt, UpdatedAt: doc.UpdatedAt}
	if doc.Computation != "" {
		d.Computation = new(store.DeadlineComputation)
		if err := json.Unmarshal([]byte(doc.Computation), d.Computation); err != nil {
			return store.Deadline{}, fmt.Errorf("decode computation of deadline %s: %w", doc.ID, err)
		}
	}
	return d, nil
}

// deadlineOrder sorts deadlines soonest first.
var deadlineOrder = bson.D{{Key: "ends_at", Value: 1}, {Key: "_id", Value: 1}}

// CreateDeadline inserts d at revision 1 unless its ID exists, and returns the stored
// deadline.
func (s *Store) CreateDeadline(ctx context.Context, d store.Deadline) (store.Deadline, error) {
	now := time.Now().UTC()
	d.Rev, d.CreatedAt, d.UpdatedAt = 1, now, now
	doc, err := deadlineDocOf(d)
	if err != nil {
		return store.Deadline{}, err
	}
	if _, err := s.deadlines.InsertOne(ctx, doc); err != nil && !mongo.IsDuplicateKeyError(err) {
		return store.Deadline{}, fmt.Errorf("insert deadline: %w", err)
	}
	return s.GetDeadline(ctx, d.CaseID, d.ID)
}

// GetDeadline returns a case's deadline, or store.ErrNotFound.
func (s *Store) GetDeadline(ctx context.Context, caseID, id string) (store.Deadline, error) {
	doc, err := findOne[deadlineDoc](ctx, s.deadlines, bson.M{"_id": id, "case_id": caseID}, "deadline "+id)
	if err != nil {
		return store.Deadline{}, err
	}
	return doc.toDeadline()
}

// ListDeadlines returns a case's deadlines, soonest first.
func (s *Store) ListDeadlines(ctx context.Context, caseID string) ([]store.Deadline, error) {
	return s.findDeadlines(ctx, bson.M{"case_id": caseID}, options.Find().SetSort(deadlineOrder))
}

// UserDeadlines returns the deadlines owner owns or answers for, soonest first.
func (s *Store) UserDeadlines(ctx context.Context, owner string, limit int) ([]store.Deadline, error) {
	limit = min(max(limit, 1), store.MaxUserDeadlines)
	return s.findDeadlines(ctx, bson.M{"$or": bson.A{bson.M{"owner": owner}, bson.M{"responsible": owner}}},
		options.Find().SetSort(deadlineOrder).SetLimit(int64(limit)))
}

func (s *Store) findDeadlines(ctx context.Context, filter bson.M, opts *options.FindOptionsBuilder) ([]store.Deadline, error) {
	docs, err := findAll[deadlineDoc](ctx, s.deadlines, filter, "deadlines", opts)
	if err != nil {
		return nil, err
	}
	out := make([]store.Deadline, 0, len(docs))
	for _, doc := range docs {
		d, err := doc.toDeadline()
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// UpdateDeadline sets d's fields where the stored deadline is at revision d.Rev.
func (s *Store) UpdateDeadline(ctx context.Context, d store.Deadline) (store.Deadline, error) {
	doc, err := deadlineDocOf(d)
	if err != nil {
		return store.Deadline{}, err
	}
	set := bson.M{"title": doc.Title, "source": doc.Source, "computation": doc.Computation, "due": doc.Due,
		"zone": doc.Zone, "ends_at": doc.EndsAt, "responsible": doc.Responsible, "reminders": doc.Reminders,
		"status": doc.Status, "proposed_by": doc.ProposedBy, "confirmed_by": doc.ConfirmedBy,
		"rev": d.Rev + 1, "updated_at": time.Now().UTC()}
	unlock := s.lock("deadline:" + d.ID)
	res, err := s.deadlines.UpdateOne(ctx, bson.M{"_id": d.ID, "case_id": d.CaseID, "rev": d.Rev}, bson.M{"$set": set})
	unlock()
	if err != nil {
		return store.Deadline{}, fmt.Errorf("update deadline: %w", err)
	}
	if res.MatchedCount == 0 {
		if _, err := s.GetDeadline(ctx, d.CaseID, d.ID); err != nil {
			return store.Deadline{}, err
		}
		return store.Deadline{}, fmt.Errorf("deadline %s at revision %d: %w", d.ID, d.Rev, store.ErrVersionConflict)
	}
	return s.GetDeadline(ctx, d.CaseID, d.ID)
}

// DeleteDeadline deletes a case's deadline.
func (s *Store) DeleteDeadline(ctx context.Context, caseID, id string) error {
	res, err := s.deadlines.DeleteOne(ctx, bson.M{"_id": id, "case_id": caseID})
	if err != nil {
		return fmt.Errorf("delete deadline: %w", err)
	}
	if res.DeletedCount == 0 {
		return fmt.Errorf("deadline %s: %w", id, store.ErrNotFound)
	}
	return nil
}
