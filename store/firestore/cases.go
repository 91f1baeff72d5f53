package firestore

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	fs "cloud.google.com/go/firestore"
	"cloud.google.com/go/firestore/apiv1/firestorepb"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// caseData is a case as stored. OrgID is written even when empty, so that a query for
// the cases of users of no organization finds them; Held repeats what Hold says as a
// field that queries can filter on. Hold has no omitempty: the emulator's Set keeps the
// fields a write leaves out, so a lifted hold is written null.
type caseData struct {
	ID          string         `firestore:"id"`
	UserID      string         `firestore:"user_id"`
	OrgID       string         `firestore:"org_id"`
	Description string         `firestore:"description"`
	Language    string         `firestore:"language"`
	Phase       string         `firestore:"phase"`
	Status      string         `firestore:"status"`
	Details     map[string]any `firestore:"case_details"`
	Version     int64          `firestore:"version"`
	Payment     *payment       `firestore:"payment,omitempty"`
	Hold        *hold          `firestore:"hold"`
	// State is the case's CaseStatus as JSON, and StateSeq its Seq, which PutStatus
	// compares.
	State    string `firestore:"state,omitempty"`
	StateSeq int64  `firestore:"state_seq,omitempty"`
	Held     bool   `firestore:"held"`
	// BeingErased marks a case whose erasure has begun (see BeginErasure).
	BeingErased bool      `firestore:"being_erased"`
	CreatedAt   time.Time `firestore:"created_at"`
	UpdatedAt   time.Time `firestore:"updated_at"`
	// Ops are the names of the latest store.MaxOps updates that carried one.
	Ops []string `firestore:"ops,omitempty"`
}

// listFields are the fields ListCases reads: all but case_details and ops.
var listFields = []string{"id", "user_id", "org_id", "description", "language", "phase", "status", "version",
	"payment", "hold", "state", "created_at", "updated_at"}

func (d caseData) toCase() store.Case {
	if d.Details == nil {
		d.Details = map[string]any{}
	}
	return store.Case{
		ID: d.ID, UserID: d.UserID, OrgID: d.OrgID, Description: d.Description, Language: d.Language,
		Phase: d.Phase, Status: d.Status, Details: d.Details, Version: d.Version,
		Payment: (*store.Payment)(d.Payment), Hold: (*store.Hold)(d.Hold), State: store.DecodeStatus(d.State),
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// payment is a case's payment as stored.
type payment struct {
	ID        string    `firestore:"id,omitempty"`
	Reference string    `firestore:"reference"`
	Method    string    `firestore:"method,omitempty"`
	Amount    int64     `firestore:"amount,omitempty"`
	Currency  string    `firestore:"currency,omitempty"`
	By        string    `firestore:"by"`
	At        time.Time `firestore:"at"`
}

// CreateCase creates the case's document, its case_details stamped last_updated,
// unless it exists, and returns the stored case.
func (s *Store) CreateCase(ctx context.Context, c store.Case) (store.Case, error) {
	now := time.Now().UTC()
	details := maps.Clone(c.Details)
	if details == nil {
		details = map[string]any{}
	}
	details[schemas.LastUpdatedField] = now
	d := caseData{ID: c.ID, UserID: c.UserID, OrgID: c.OrgID, Description: c.Description, Language: c.Language,
		Phase: c.Phase, Status: c.Status, Details: details, CreatedAt: now, UpdatedAt: now}
	if _, err := s.caseDoc(c.ID).Create(ctx, d); err != nil && !exists(err) {
		return store.Case{}, fmt.Errorf("create case: %w", err)
	}
	return s.GetCase(ctx, c.ID)
}

// readCase reads a case's document, in tx when it is not nil.
func (s *Store) readCase(ctx context.Context, tx *fs.Transaction, id string) (caseData, error) {
	return read[caseData](ctx, tx, s.caseDoc(id), "case "+id)
}

// GetCase returns the case with that ID, or store.ErrNotFound.
func (s *Store) GetCase(ctx context.Context, id string) (store.Case, error) {
	d, err := s.readCase(ctx, nil, id)
	if err != nil {
		return store.Case{}, err
	}
	return d.toCase(), nil
}

// CaseOwner returns the organization and subject that own a case.
func (s *Store) CaseOwner(ctx context.Context, id string) (org, subject string, err error) {
	d, err := s.readCase(ctx, nil, id)
	if err != nil {
		return "", "", err
	}
	return d.OrgID, d.UserID, nil
}

// SetPhase sets the case's phase and status in one write that fails on a missing case.
func (s *Store) SetPhase(ctx context.Context, id, phase, status string) error {
	ref := s.caseDoc(id)
	defer s.lock(ref)()
	_, err := ref.Update(ctx, []fs.Update{{Path: "phase", Value: phase}, {Path: "status", Value: status},
		{Path: "updated_at", Value: time.Now().UTC()}})
	if notFound(err) {
		return fmt.Errorf("case %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("set case phase: %w", err)
	}
	return nil
}

// PutStatus records st as the case's status, with its phase and status, in a
// transaction that leaves a case holding a status of a higher or equal Seq as it is.
func (s *Store) PutStatus(ctx context.Context, id string, st schemas.CaseStatus) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	ref := s.caseDoc(id)
	return s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		d, err := s.readCase(ctx, tx, id)
		if err != nil {
			return err
		}
		if d.State != "" && d.StateSeq >= st.Seq {
			return nil
		}
		return tx.Update(ref, []fs.Update{{Path: "phase", Value: st.Phase}, {Path: "status", Value: st.Status},
			{Path: "state", Value: string(raw)}, {Path: "state_seq", Value: st.Seq}, {Path: "updated_at", Value: time.Now().UTC()}})
	})
}

// UpdateDetails reads the case, applies the updates to its case_details and writes it
// back with the next version and last_updated, in one transaction.
func (s *Store) UpdateDetails(ctx context.Context, id string, expected int64, op string, updates map[string]any) (int64, error) {
	fields, err := store.ParseUpdates(updates)
	if err != nil {
		return 0, err
	}
	var version int64
	err = s.update(ctx, s.caseDoc(id), func(ctx context.Context, tx *fs.Transaction) error {
		d, err := s.readCase(ctx, tx, id)
		if err != nil {
			return err
		}
		if op != "" && slices.Contains(d.Ops, op) {
			version = d.Version
			return nil
		}
		if expected > 0 && d.Version != expected {
			return fmt.Errorf("%w: case_details are at version %d, not %d; read them again", store.ErrVersionConflict, d.Version, expected)
		}
		if d.Details == nil {
			d.Details = map[string]any{}
		}
		if err := applyUpdates(d.Details, fields); err != nil {
			return err
		}
		d.Version++
		d.UpdatedAt = time.Now().UTC()
		d.Details[schemas.LastUpdatedField] = d.UpdatedAt
		if op != "" {
			d.Ops = append(d.Ops, op)
			d.Ops = d.Ops[max(0, len(d.Ops)-store.MaxOps):]
		}
		version = d.Version
		return tx.Set(s.caseDoc(id), d)
	})
	return version, err
}

// SetPayment records the payment unless the case has one, and returns the recorded one.
func (s *Store) SetPayment(ctx context.Context, id string, p store.Payment) (store.Payment, error) {
	var got store.Payment
	err := s.update(ctx, s.caseDoc(id), func(ctx context.Context, tx *fs.Transaction) error {
		d, err := s.readCase(ctx, tx, id)
		if err != nil {
			return err
		}
		if d.Payment != nil {
			got = store.Payment(*d.Payment)
			return nil
		}
		d.Payment = (*payment)(&p)
		d.Payment.At = p.At.UTC()
		d.UpdatedAt = time.Now().UTC()
		got = store.Payment(*d.Payment)
		return tx.Set(s.caseDoc(id), d)
	})
	if err != nil {
		return store.Payment{}, fmt.Errorf("record payment: %w", err)
	}
	return got, nil
}

// ownedBy selects the cases (or receipts) of an organization's subject, or of the whole
// organization when subject is empty.
func ownedBy(q fs.Query, org, subject string) fs.Query {
	q = q.Where("org_id", "==", org)
	if subject != "" {
		q = q.Where("user_id", "==", subject)
	}
	return q
}

// ListCases returns an owner's cases, newest first (ties by ID, descending), without
// their case_details: those after the case with ID after, or the newest. The cases
// after one are read by two queries, those created at its time with a lower ID and then
// those created before it, since the emulator has no query cursors.
func (s *Store) ListCases(ctx context.Context, org, subject, after string, limit int) ([]store.Case, error) {
	base := s.client.Collection(CasesCollection).Select(listFields...).
		Where("org_id", "==", org).Where("user_id", "==", subject).Where("being_erased", "==", false)
	var queries []fs.Query
	if after == "" {
		queries = []fs.Query{base}
	} else {
		from, err := s.readCase(ctx, nil, after)
		if err == nil && (from.OrgID != org || from.UserID != subject) {
			err = fmt.Errorf("case %s: %w", after, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		queries = []fs.Query{
			base.Where("created_at", "==", from.CreatedAt).Where("id", "<", after),
			base.Where("created_at", "<", from.CreatedAt),
		}
	}
	out := []store.Case{}
	for _, q := range queries {
		if len(out) >= limit {
			break
		}
		docs, err := all[caseData](ctx, q.OrderBy("created_at", fs.Desc).OrderBy("id", fs.Desc).Limit(limit-len(out)))
		if err != nil {
			return nil, fmt.Errorf("list cases: %w", err)
		}
		for _, d := range docs {
			c := d.toCase()
			c.Details = nil
			out = append(out, c)
		}
	}
	return out, nil
}

// CountCases counts the cases created since a time by an organization's subject, or by
// the organization: those stored and not being erased, and the receipts of those whose
// erasure began, which carry the case's owner and creation time.
func (s *Store) CountCases(ctx context.Context, org, subject string, since time.Time) (int, error) {
	stored, err := count(ctx, ownedBy(s.client.Collection(CasesCollection).Query, org, subject).
		Where("being_erased", "==", false).Where("created_at", ">=", since))
	if err != nil {
		return 0, fmt.Errorf("count cases: %w", err)
	}
	erased, err := count(ctx, ownedBy(s.client.Collection(ErasuresCollection).Query, org, subject).
		Where("created_at", ">=", since))
	if err != nil {
		return 0, fmt.Errorf("count erased cases: %w", err)
	}
	return stored + erased, nil
}

// count counts the documents q finds, by an aggregation query.
func count(ctx context.Context, q fs.Query) (int, error) {
	res, err := q.NewAggregationQuery().WithCount("n").Get(ctx)
	if err != nil {
		return 0, err
	}
	n, err := aggregateInt(res["n"])
	return int(n), err
}

// aggregateInt reads an aggregation's integer result, which the client gives as an
// int64 or as the protocol's value: an integer, or a double when a sum overflows int64
// or meets a double field, which is refused rather than read as 0.
func aggregateInt(v any) (int64, error) {
	switch n := v.(type) {
	case int64:
		return n, nil
	case *firestorepb.Value:
		if i, ok := n.GetValueType().(*firestorepb.Value_IntegerValue); ok {
			return i.IntegerValue, nil
		}
		return 0, fmt.Errorf("aggregation: a result of type %T, not an integer", n.GetValueType())
	default:
		return 0, fmt.Errorf("aggregation: unexpected result %T", n)
	}
}
