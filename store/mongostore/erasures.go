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

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// hold is a legal hold as stored on its case.
type hold struct {
	By     string    `bson:"by"`
	Org    string    `bson:"org,omitempty"`
	Reason string    `bson:"reason"`
	At     time.Time `bson:"at"`
}

// erasing marks a case whose erasure has begun: when, who asked and why, so that a
// BeginErasure retried after a crash before the receipt was stored writes it as asked.
type erasing struct {
	At     time.Time `bson:"at"`
	By     string    `bson:"by"`
	Reason string    `bson:"reason"`
}

// erasureDoc is an erasure receipt as stored, under the case's ID.
type erasureDoc struct {
	CaseID      string     `bson:"_id"`
	OrgID       string     `bson:"org_id,omitempty"`
	UserID      string     `bson:"user_id"`
	CreatedAt   time.Time  `bson:"created_at"`
	RequestedBy string     `bson:"requested_by"`
	Reason      string     `bson:"reason"`
	RequestedAt time.Time  `bson:"requested_at"`
	ErasedAt    *time.Time `bson:"erased_at,omitempty"`
	Erased      erased     `bson:"erased"`
}

// erased is schemas.Erased as stored.
type erased struct {
	Cases           int        `bson:"cases"`
	Records         int        `bson:"records"`
	Parties         int        `bson:"parties"`
	Tickets         int        `bson:"tickets"`
	Events          int        `bson:"events"`
	Blobs           int        `bson:"blobs"`
	CourtFiles      int        `bson:"court_files"`
	Deadlines       int        `bson:"deadlines"`
	Notifications   int        `bson:"notifications"`
	MemoryProposals int        `bson:"memory_proposals"`
	KeyDestroyedAt  *time.Time `bson:"key_destroyed_at,omitempty"`
}

func (d erasureDoc) toErasure() schemas.Erasure {
	return schemas.Erasure{CaseID: d.CaseID, OrgID: d.OrgID, UserID: d.UserID, CaseCreatedAt: d.CreatedAt, RequestedBy: d.RequestedBy,
		Reason: d.Reason, RequestedAt: d.RequestedAt, ErasedAt: d.ErasedAt, Erased: schemas.Erased(d.Erased)}
}

// notErasing matches a case whose erasure has not begun (field "erasing").
var notErasing = bson.M{"$exists": false}

// SetHold sets or lifts a case's legal hold where its erasure has not begun and, for
// an organization's admin, where the case has no hold or one of theirs.
func (s *Store) SetHold(ctx context.Context, caseID, org string, h *store.Hold) error {
	update := bson.M{"$unset": bson.M{"hold": ""}}
	if h != nil {
		update = bson.M{"$set": bson.M{"hold": hold(*h)}}
	}
	filter := bson.M{"_id": caseID, "erasing": notErasing}
	if org != "" {
		filter["$or"] = bson.A{bson.M{"hold": bson.M{"$exists": false}}, bson.M{"hold.org": org}}
	}
	unlock := s.lock("case:" + caseID)
	res, err := s.cases.UpdateOne(ctx, filter, update)
	unlock()
	if err != nil {
		return fmt.Errorf("set hold: %w", err)
	}
	if res.MatchedCount > 0 {
		return nil
	}
	c, err := findOne[caseDoc](ctx, s.cases, bson.M{"_id": caseID}, "case "+caseID)
	switch {
	case err != nil:
		return err
	case c.Erasing != nil:
		return fmt.Errorf("case %s: %w", caseID, store.ErrErasing)
	}
	return fmt.Errorf("case %s: %w", caseID, store.ErrOthersHold)
}

// BeginErasure marks the case as being erased where it has no hold, then stores the
// receipt; a retry after a crash between the two finds the mark and stores the receipt
// it names.
func (s *Store) BeginErasure(ctx context.Context, e schemas.Erasure) (schemas.Erasure, error) {
	if got, err := s.GetErasure(ctx, e.CaseID); !errors.Is(err, store.ErrNotFound) {
		return got, err
	}
	mark := erasing{At: e.RequestedAt.UTC(), By: e.RequestedBy, Reason: e.Reason}
	if mark.At.IsZero() {
		mark.At = time.Now().UTC()
	}
	var c caseDoc
	unlock := s.lock("case:" + e.CaseID)
	err := s.cases.FindOneAndUpdate(ctx, bson.M{"_id": e.CaseID, "hold": bson.M{"$exists": false}, "erasing": notErasing},
		bson.M{"$set": bson.M{"erasing": mark}}).Decode(&c) // FerretDB takes no projection here
	unlock()
	if errors.Is(err, mongo.ErrNoDocuments) {
		err = s.cases.FindOne(ctx, bson.M{"_id": e.CaseID}).Decode(&c)
		switch {
		case errors.Is(err, mongo.ErrNoDocuments):
			// Erased meanwhile by a concurrent erasure, or never stored.
			if got, gerr := s.GetErasure(ctx, e.CaseID); gerr == nil {
				return got, nil
			}
			return schemas.Erasure{}, fmt.Errorf("case %s: %w", e.CaseID, store.ErrNotFound)
		case err != nil:
			return schemas.Erasure{}, fmt.Errorf("begin erasure: %w", err)
		case c.Erasing != nil:
			mark = *c.Erasing
		default:
			return schemas.Erasure{}, fmt.Errorf("case %s: %w", e.CaseID, store.ErrHeld)
		}
	} else if err != nil {
		return schemas.Erasure{}, fmt.Errorf("begin erasure: %w", err)
	}
	doc := erasureDoc{CaseID: e.CaseID, OrgID: c.OrgID, UserID: c.UserID, CreatedAt: c.CreatedAt,
		RequestedBy: mark.By, Reason: mark.Reason, RequestedAt: mark.At}
	if _, err := s.erasures.InsertOne(ctx, doc); err != nil && !mongo.IsDuplicateKeyError(err) {
		return schemas.Erasure{}, fmt.Errorf("store erasure: %w", err)
	}
	return s.GetErasure(ctx, e.CaseID)
}

// EraseCaseData deletes the case and every document of it in the other collections
// (on FerretDB its turn documents too, which the receipt does not count).
func (s *Store) EraseCaseData(ctx context.Context, caseID string) (schemas.Erased, error) {
	var out schemas.Erased
	for _, d := range []struct {
		coll  *mongo.Collection
		count *int
	}{
		{s.transcripts, &out.Records}, {s.parties, &out.Parties}, {s.tickets, &out.Tickets}, {s.events, &out.Events},
		{s.courtFiles, &out.CourtFiles},
		{s.deadlines, &out.Deadlines},
	} {
		res, err := d.coll.DeleteMany(ctx, bson.M{"case_id": caseID})
		if err != nil {
			return schemas.Erased{}, fmt.Errorf("erase %s: %w", d.coll.Name(), err)
		}
		*d.count = int(res.DeletedCount)
	}
	if s.turns != nil {
		if _, err := s.turns.DeleteMany(ctx, bson.M{"case_id": caseID}); err != nil {
			return schemas.Erased{}, fmt.Errorf("erase %s: %w", s.turns.Name(), err)
		}
	}
	s.lastSeen.Delete(caseID)
	// The case goes last, so a crash midway leaves it for the retry to find.
	unlock := s.lock("case:" + caseID)
	res, err := s.cases.DeleteOne(ctx, bson.M{"_id": caseID})
	unlock()
	if err != nil {
		return schemas.Erased{}, fmt.Errorf("erase case: %w", err)
	}
	out.Cases = int(res.DeletedCount)
	return out, nil
}

// FinishErasure sets the receipt's counts and time unless they are set.
func (s *Store) FinishErasure(ctx context.Context, caseID string, e schemas.Erased, at time.Time) (schemas.Erasure, error) {
	_, err := s.erasures.UpdateOne(ctx, bson.M{"_id": caseID, "erased_at": bson.M{"$exists": false}},
		bson.M{"$set": bson.M{"erased_at": at.UTC(), "erased": erased(e)}})
	if err != nil {
		return schemas.Erasure{}, fmt.Errorf("finish erasure: %w", err)
	}
	return s.GetErasure(ctx, caseID)
}

// GetErasure returns a case's erasure receipt, or store.ErrNotFound.
func (s *Store) GetErasure(ctx context.Context, caseID string) (schemas.Erasure, error) {
	d, err := findOne[erasureDoc](ctx, s.erasures, bson.M{"_id": caseID}, "erasure of case "+caseID)
	if err != nil {
		return schemas.Erasure{}, err
	}
	return d.toErasure(), nil
}

// ExpiredCases finds closed cases of org updated before a time, without a hold or
// an erasure begun, oldest first.
func (s *Store) ExpiredCases(ctx context.Context, org string, before time.Time, limit int) ([]string, error) {
	filter := bson.M{"org_id": org, "status": schemas.StatusClosed, "updated_at": bson.M{"$lt": before},
		"hold": bson.M{"$exists": false}, "erasing": notErasing}
	if org == "" {
		filter["org_id"] = bson.M{"$in": bson.A{"", nil}}
	}
	opts := options.Find().SetSort(bson.D{{Key: "updated_at", Value: 1}, {Key: "_id", Value: 1}}).
		SetLimit(int64(limit)).SetProjection(bson.M{"_id": 1})
	docs, err := findAll[idDoc](ctx, s.cases, filter, "expired cases", opts)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		ids = append(ids, d.ID)
	}
	return ids, nil
}

// idDoc is a document's ID alone.
type idDoc struct {
	ID string `bson:"_id"`
}

// StalledErasures finds cases marked as being erased before a time, then receipts of
// erasures requested before it that never finished, each oldest first.
func (s *Store) StalledErasures(ctx context.Context, before time.Time, limit int) ([]string, error) {
	var out []string
	for _, q := range []struct {
		coll   *mongo.Collection
		filter bson.M
		by     string
	}{
		{s.cases, bson.M{"erasing.at": bson.M{"$lt": before}}, "erasing.at"},
		{s.erasures, bson.M{"erased_at": bson.M{"$exists": false}, "requested_at": bson.M{"$lt": before}}, "requested_at"},
	} {
		opts := options.Find().SetSort(bson.D{{Key: q.by, Value: 1}, {Key: "_id", Value: 1}}).
			SetLimit(int64(limit)).SetProjection(bson.M{"_id": 1})
		docs, err := findAll[idDoc](ctx, q.coll, q.filter, "stalled erasures", opts)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if !slices.Contains(out, d.ID) {
				out = append(out, d.ID)
			}
		}
	}
	return out[:min(len(out), limit)], nil
}
