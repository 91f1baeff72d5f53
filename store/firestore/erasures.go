package firestore

import (
	"context"
	"errors"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// hold is a legal hold as stored on its case.
type hold struct {
	By     string    `firestore:"by"`
	Org    string    `firestore:"org,omitempty"`
	Reason string    `firestore:"reason"`
	At     time.Time `firestore:"at"`
}

// erasureData is an erasure receipt as stored, under the case's ID. OrgID is written
// even when empty, as on a case, for CountCases.
type erasureData struct {
	CaseID      string     `firestore:"case_id"`
	OrgID       string     `firestore:"org_id"`
	UserID      string     `firestore:"user_id"`
	CreatedAt   time.Time  `firestore:"created_at"`
	RequestedBy string     `firestore:"requested_by"`
	Reason      string     `firestore:"reason"`
	RequestedAt time.Time  `firestore:"requested_at"`
	Finished    bool       `firestore:"finished"`
	ErasedAt    *time.Time `firestore:"erased_at,omitempty"`
	Erased      erased     `firestore:"erased"`
}

// erased is schemas.Erased as stored.
type erased struct {
	Cases           int        `firestore:"cases"`
	Records         int        `firestore:"records"`
	Parties         int        `firestore:"parties"`
	Tickets         int        `firestore:"tickets"`
	Events          int        `firestore:"events"`
	Blobs           int        `firestore:"blobs"`
	CourtFiles      int        `firestore:"court_files"`
	Deadlines       int        `firestore:"deadlines"`
	Notifications   int        `firestore:"notifications"`
	MemoryProposals int        `firestore:"memory_proposals"`
	KeyDestroyedAt  *time.Time `firestore:"key_destroyed_at,omitempty"`
}

func (d erasureData) erasure() schemas.Erasure {
	return schemas.Erasure{CaseID: d.CaseID, OrgID: d.OrgID, UserID: d.UserID, CaseCreatedAt: d.CreatedAt,
		RequestedBy: d.RequestedBy, Reason: d.Reason, RequestedAt: d.RequestedAt, ErasedAt: d.ErasedAt, Erased: schemas.Erased(d.Erased)}
}

// SetHold sets or lifts a case's legal hold, in a transaction, where its erasure has
// not begun and, for an organization's admin, where the case has no hold or one of
// theirs.
func (s *Store) SetHold(ctx context.Context, caseID, org string, h *store.Hold) error {
	ref := s.caseDoc(caseID)
	return s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		d, err := s.readCase(ctx, tx, caseID)
		switch {
		case err != nil:
			return err
		case d.BeingErased:
			return fmt.Errorf("case %s: %w", caseID, store.ErrErasing)
		case org != "" && d.Hold != nil && d.Hold.Org != org:
			return fmt.Errorf("case %s: %w", caseID, store.ErrOthersHold)
		}
		d.Hold, d.Held = nil, h != nil
		if h != nil {
			d.Hold = &hold{By: h.By, Org: h.Org, Reason: h.Reason, At: h.At.UTC()}
		}
		return tx.Set(ref, d)
	})
}

// BeginErasure marks the case as being erased and stores its receipt in one
// transaction, unless the case has a hold or a receipt already.
func (s *Store) BeginErasure(ctx context.Context, e schemas.Erasure) (schemas.Erasure, error) {
	ref, receipt := s.caseDoc(e.CaseID), s.doc(ErasuresCollection, e.CaseID)
	var out erasureData
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		var err error
		if out, err = s.readErasure(ctx, tx, e.CaseID); !errors.Is(err, store.ErrNotFound) {
			return err
		}
		d, err := s.readCase(ctx, tx, e.CaseID)
		if err != nil {
			return err
		}
		if d.Held {
			return fmt.Errorf("case %s: %w", e.CaseID, store.ErrHeld)
		}
		at := e.RequestedAt.UTC()
		if at.IsZero() {
			at = time.Now().UTC()
		}
		out = erasureData{CaseID: e.CaseID, OrgID: d.OrgID, UserID: d.UserID, CreatedAt: d.CreatedAt,
			RequestedBy: e.RequestedBy, Reason: e.Reason, RequestedAt: at}
		d.BeingErased = true
		if err := tx.Set(ref, d); err != nil {
			return err
		}
		return tx.Create(receipt, out)
	})
	if err != nil {
		return schemas.Erasure{}, fmt.Errorf("begin erasure: %w", err)
	}
	return out.erasure(), nil
}

// deleteBatch is how many documents one transaction of EraseCaseData deletes, below
// Firestore's 500 writes to a commit.
const deleteBatch = 400

// EraseCaseData deletes the case's subcollections and deadlines, then its document.
func (s *Store) EraseCaseData(ctx context.Context, caseID string) (schemas.Erased, error) {
	var out schemas.Erased
	for _, c := range []struct {
		name  string
		count *int
	}{
		{RecordsCollection, &out.Records}, {PartiesCollection, &out.Parties}, {TicketsCollection, &out.Tickets},
		// An event's ID goes before the event, so that no ID is left naming a deleted
		// number.
		{eventIDsCollection, nil}, {EventsCollection, &out.Events},
	} {
		n, err := s.deleteAll(ctx, s.sub(caseID, c.name).Query)
		if err != nil {
			return schemas.Erased{}, fmt.Errorf("erase %s: %w", c.name, err)
		}
		if c.count != nil {
			*c.count = n
		}
	}
	n, err := s.deleteAll(ctx, s.client.Collection(DeadlinesCollection).Where("case_id", "==", caseID))
	if err != nil {
		return schemas.Erased{}, fmt.Errorf("erase %s: %w", DeadlinesCollection, err)
	}
	out.Deadlines = n
	n, err = s.eraseCourtFiles(ctx, caseID)
	if err != nil {
		return schemas.Erased{}, fmt.Errorf("erase %s: %w", CourtFilesCollection, err)
	}
	out.CourtFiles = n
	// The case goes last, so a crash midway leaves it for the retry to find.
	ref := s.caseDoc(caseID)
	err = s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		snap, err := tx.Get(ref)
		if notFound(err) {
			out.Cases = 0
			return nil
		}
		if err != nil {
			return err
		}
		out.Cases = 1
		return tx.Delete(snap.Ref)
	})
	if err != nil {
		return schemas.Erased{}, fmt.Errorf("erase case: %w", err)
	}
	return out, nil
}

// deleteAll deletes every document a query finds, a batch at a time, and counts them.
func (s *Store) deleteAll(ctx context.Context, q fs.Query) (int, error) {
	n := 0
	for {
		docs, err := q.Select().Limit(deleteBatch).Documents(ctx).GetAll()
		if err != nil || len(docs) == 0 {
			return n, err
		}
		err = s.client.RunTransaction(ctx, func(ctx context.Context, tx *fs.Transaction) error {
			for _, d := range docs {
				if err := tx.Delete(d.Ref); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		n += len(docs)
	}
}

// FinishErasure sets the receipt's counts and time unless they are set.
func (s *Store) FinishErasure(ctx context.Context, caseID string, e schemas.Erased, at time.Time) (schemas.Erasure, error) {
	ref := s.doc(ErasuresCollection, caseID)
	var d erasureData
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		var err error
		if d, err = s.readErasure(ctx, tx, caseID); err != nil || d.Finished {
			return err
		}
		at := at.UTC()
		d.Finished, d.ErasedAt, d.Erased = true, &at, erased(e)
		return tx.Set(ref, d)
	})
	if err != nil {
		return schemas.Erasure{}, fmt.Errorf("finish erasure: %w", err)
	}
	return d.erasure(), nil
}

// readErasure reads a receipt, in tx when it is not nil.
func (s *Store) readErasure(ctx context.Context, tx *fs.Transaction, caseID string) (erasureData, error) {
	return read[erasureData](ctx, tx, s.doc(ErasuresCollection, caseID), "erasure of case "+caseID)
}

// GetErasure returns a case's erasure receipt, or store.ErrNotFound.
func (s *Store) GetErasure(ctx context.Context, caseID string) (schemas.Erasure, error) {
	d, err := s.readErasure(ctx, nil, caseID)
	if err != nil {
		return schemas.Erasure{}, err
	}
	return d.erasure(), nil
}

// ExpiredCases finds closed cases of org updated before a time, without a hold or
// an erasure begun, oldest first.
func (s *Store) ExpiredCases(ctx context.Context, org string, before time.Time, limit int) ([]string, error) {
	q := s.client.Collection(CasesCollection).Select("id").Where("org_id", "==", org).
		Where("status", "==", schemas.StatusClosed).Where("held", "==", false).Where("being_erased", "==", false).
		Where("updated_at", "<", before).OrderBy("updated_at", fs.Asc).OrderBy("id", fs.Asc).Limit(limit)
	docs, err := all[caseData](ctx, q)
	if err != nil {
		return nil, fmt.Errorf("find expired cases: %w", err)
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	return ids, nil
}

// StalledErasures finds receipts of erasures requested before a time that never
// finished, oldest first. A case is marked as being erased in the transaction that
// stores its receipt, so the receipts name every erasure begun.
func (s *Store) StalledErasures(ctx context.Context, before time.Time, limit int) ([]string, error) {
	q := s.client.Collection(ErasuresCollection).Select("case_id").Where("finished", "==", false).
		Where("requested_at", "<", before).OrderBy("requested_at", fs.Asc).OrderBy("case_id", fs.Asc).Limit(limit)
	docs, err := all[erasureData](ctx, q)
	if err != nil {
		return nil, fmt.Errorf("find stalled erasures: %w", err)
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.CaseID
	}
	return ids, nil
}
