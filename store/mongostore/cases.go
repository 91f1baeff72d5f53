package mongostore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// caseDoc is a case as stored.
type caseDoc struct {
	ID          string   `bson:"_id"`
	UserID      string   `bson:"user_id"`
	OrgID       string   `bson:"org_id,omitempty"`
	Description string   `bson:"description"`
	Language    string   `bson:"language"`
	Phase       string   `bson:"phase"`
	Status      string   `bson:"status"`
	Details     bson.M   `bson:"case_details"`
	Version     int64    `bson:"version"`
	Payment     *payment `bson:"payment,omitempty"`
	Hold        *hold    `bson:"hold,omitempty"`
	// State is the case's CaseStatus as JSON, and StateSeq its Seq, which PutStatus
	// compares.
	State    string `bson:"state,omitempty"`
	StateSeq int64  `bson:"state_seq,omitempty"`
	// Erasing marks a case whose erasure has begun: BeginErasure sets it where the
	// case has no hold, and SetHold holds only a case without it.
	Erasing   *erasing  `bson:"erasing,omitempty"`
	CreatedAt time.Time `bson:"created_at"`
	UpdatedAt time.Time `bson:"updated_at"`
	// Ops are the names of the latest store.MaxOps updates that carried one. $push's
	// $slice keeps them to that on MongoDB; FerretDB ignores $slice, so updateAt trims
	// them there.
	Ops []string `bson:"ops,omitempty"`
}

func (d caseDoc) toCase() store.Case {
	return store.Case{
		ID: d.ID, UserID: d.UserID, OrgID: d.OrgID, Description: d.Description,
		Language: d.Language, Phase: d.Phase, Status: d.Status, Details: plain(d.Details).(map[string]any),
		Version: d.Version, Payment: (*store.Payment)(d.Payment), Hold: (*store.Hold)(d.Hold),
		State: store.DecodeStatus(d.State), CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// CreateCase inserts c, its case_details stamped last_updated, unless its ID exists,
// and returns the stored case.
func (s *Store) CreateCase(ctx context.Context, c store.Case) (store.Case, error) {
	now := time.Now().UTC()
	details := bson.M{}
	maps.Copy(details, c.Details)
	details[schemas.LastUpdatedField] = now
	doc := caseDoc{
		ID: c.ID, UserID: c.UserID, OrgID: c.OrgID, Description: c.Description,
		Language: c.Language, Phase: c.Phase, Status: c.Status, Details: details,
		CreatedAt: now, UpdatedAt: now,
	}
	_, err := s.cases.InsertOne(ctx, doc)
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return store.Case{}, fmt.Errorf("insert case: %w", err)
	}
	return s.GetCase(ctx, c.ID)
}

// GetCase returns the case with that ID, or store.ErrNotFound.
func (s *Store) GetCase(ctx context.Context, id string) (store.Case, error) {
	d, err := findOne[caseDoc](ctx, s.cases, bson.M{"_id": id}, "case "+id)
	if err != nil {
		return store.Case{}, err
	}
	return d.toCase(), nil
}

// CaseOwner returns the organization and subject that own a case, or
// store.ErrNotFound.
func (s *Store) CaseOwner(ctx context.Context, id string) (org, subject string, err error) {
	d, err := findOne[struct {
		UserID string `bson:"user_id"`
		OrgID  string `bson:"org_id"`
	}](ctx, s.cases, bson.M{"_id": id}, "case "+id, options.FindOne().SetProjection(bson.M{"user_id": 1, "org_id": 1}))
	return d.OrgID, d.UserID, err
}

// SetPhase moves a case to a phase and status.
func (s *Store) SetPhase(ctx context.Context, id, phase, status string) error {
	defer s.lock("case:" + id)()
	res, err := s.cases.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{
		"phase": phase, "status": status, "updated_at": time.Now().UTC(),
	}})
	if err != nil {
		return fmt.Errorf("set case phase: %w", err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("case %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// PutStatus records st as the case's status, with its phase and status, in one write
// that matches only while the case holds no status of a higher or equal Seq.
func (s *Store) PutStatus(ctx context.Context, id string, st schemas.CaseStatus) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	defer s.lock("case:" + id)()
	older := bson.A{bson.M{"state_seq": bson.M{"$lt": st.Seq}}, bson.M{"state_seq": bson.M{"$exists": false}}}
	res, err := s.cases.UpdateOne(ctx, bson.M{"_id": id, "$or": older}, bson.M{"$set": bson.M{
		"phase": st.Phase, "status": st.Status, "state": string(raw), "state_seq": st.Seq, "updated_at": time.Now().UTC(),
	}})
	if err != nil {
		return fmt.Errorf("put case status: %w", err)
	}
	if res.MatchedCount > 0 {
		return nil
	}
	if err := s.cases.FindOne(ctx, bson.M{"_id": id}, options.FindOne().SetProjection(bson.M{"_id": 1})).Err(); errors.Is(err, mongo.ErrNoDocuments) {
		return fmt.Errorf("case %s: %w", id, store.ErrNotFound)
	} else if err != nil {
		return fmt.Errorf("read case: %w", err)
	}
	return nil // the case holds a later status
}

// UpdateDetails applies dot-path updates to case_details in one write: replaced fields
// with $set, log fields with $push/$each, and the version with $inc; last_updated and
// updated_at get the same time. An op is pushed to
// the case's ops in the same write, which matches only while the case lacks it.
func (s *Store) UpdateDetails(ctx context.Context, id string, expected int64, op string, updates map[string]any) (int64, error) {
	fields, err := store.ParseUpdates(updates)
	if err != nil {
		return 0, err
	}
	now := time.Now().UTC()
	set := bson.M{"updated_at": now, "case_details." + schemas.LastUpdatedField: now}
	push := bson.M{}
	for _, f := range fields {
		if f.Append {
			push["case_details."+f.Path] = bson.M{"$each": f.Value}
		} else {
			set["case_details."+f.Path] = f.Value
		}
	}
	filter := bson.M{"_id": id}
	if op != "" {
		filter["ops"] = bson.M{"$ne": op}
		push["ops"] = bson.M{"$each": []string{op}, "$slice": -store.MaxOps}
	}
	update := bson.M{"$set": set, "$inc": bson.M{"version": 1}}
	if len(push) > 0 {
		update["$push"] = push
	}
	defer s.lock("case:" + id)()
	if expected > 0 {
		filter["version"] = expected
	}
	return s.updateAt(ctx, id, op, expected, filter, update)
}

// updateAt applies update to the case filter matches, and returns the new version. When
// the case exists but the filter does not match, either it has op already, and its
// version is the answer, or its version was not the one expected.
func (s *Store) updateAt(ctx context.Context, id, op string, expected int64, filter, update bson.M) (int64, error) {
	var d caseDoc
	err := s.cases.FindOneAndUpdate(ctx, filter, update,
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&d)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		current, err := findOne[caseDoc](ctx, s.cases, bson.M{"_id": id}, "case "+id)
		if err != nil {
			return 0, err
		}
		if op != "" && slices.Contains(current.Ops, op) {
			return current.Version, nil
		}
		return 0, fmt.Errorf("%w: case_details are at version %d, not %d; read them again", store.ErrVersionConflict, current.Version, expected)
	case isWriteConflictWithShape(err):
		return 0, fmt.Errorf("%w: %v", store.ErrInvalidField, err)
	case err != nil:
		return 0, fmt.Errorf("update case details: %w", err)
	}
	if n := len(d.Ops); n > store.MaxOps {
		// FerretDB ignored $push's $slice. A trim that fails leaves the case more ops
		// than MaxOps, never fewer, and the next update trims again.
		_, _ = s.cases.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{"ops": d.Ops[n-store.MaxOps:]}})
	}
	return d.Version, nil
}

// isWriteConflictWithShape reports whether the server refused an update because the
// document's shape does not allow it: a path through a non-object, or $push to a
// non-array. Those are the caller's mistake, not a transient failure.
func isWriteConflictWithShape(err error) bool {
	var se mongo.ServerError
	if !errors.As(err, &se) {
		return false
	}
	// 2 BadValue, 14 TypeMismatch, 28 PathNotViable, 40 ConflictingUpdateOperators,
	// 52 DollarPrefixedFieldName, 56 EmptyFieldName, 57 DottedFieldName.
	for _, code := range []int{2, 14, 28, 40, 52, 56, 57} {
		if se.HasErrorCode(code) {
			return true
		}
	}
	return false
}

// payment is a case's payment as stored.
type payment struct {
	ID        string    `bson:"id,omitempty"`
	Reference string    `bson:"reference"`
	Method    string    `bson:"method,omitempty"`
	Amount    int64     `bson:"amount,omitempty"`
	Currency  string    `bson:"currency,omitempty"`
	By        string    `bson:"by"`
	At        time.Time `bson:"at"`
}

// SetPayment records the payment unless the case has one, and returns the recorded one.
func (s *Store) SetPayment(ctx context.Context, id string, p store.Payment) (store.Payment, error) {
	unlock := s.lock("case:" + id)
	_, err := s.cases.UpdateOne(ctx, bson.M{"_id": id, "payment": bson.M{"$exists": false}},
		bson.M{"$set": bson.M{"payment": payment(p), "updated_at": time.Now().UTC()}})
	unlock()
	if err != nil {
		return store.Payment{}, fmt.Errorf("record payment: %w", err)
	}
	c, err := s.GetCase(ctx, id)
	if err != nil {
		return store.Payment{}, err
	}
	if c.Payment == nil {
		return store.Payment{}, fmt.Errorf("record payment of case %s: not stored", id)
	}
	return *c.Payment, nil
}

// ListCases returns an owner's cases, newest first (ties by ID, descending), without
// their case_details and ops: those after the case with ID after, or the newest.
func (s *Store) ListCases(ctx context.Context, org, subject, after string, limit int) ([]store.Case, error) {
	filter := bson.M{"org_id": org, "user_id": subject, "erasing": notErasing}
	if org == "" {
		filter["org_id"] = bson.M{"$in": bson.A{"", nil}}
	}
	if after != "" {
		from, err := findOne[caseDoc](ctx, s.cases, bson.M{"_id": after}, "case "+after,
			options.FindOne().SetProjection(bson.M{"org_id": 1, "user_id": 1, "created_at": 1}))
		if err == nil && (from.OrgID != org || from.UserID != subject) {
			err = fmt.Errorf("case %s: %w", after, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		filter["$or"] = bson.A{
			bson.M{"created_at": bson.M{"$lt": from.CreatedAt}},
			bson.M{"created_at": from.CreatedAt, "_id": bson.M{"$lt": after}},
		}
	}
	opts := options.Find().SetSort(bson.D{{Key: "created_at", Value: -1}, {Key: "_id", Value: -1}}).
		SetLimit(int64(limit)).SetProjection(bson.M{"case_details": 0, "ops": 0})
	docs, err := findAll[caseDoc](ctx, s.cases, filter, "cases", opts)
	if err != nil {
		return nil, err
	}
	out := make([]store.Case, 0, len(docs))
	for _, d := range docs {
		c := d.toCase()
		c.Details = nil
		out = append(out, c)
	}
	return out, nil
}

// CountCases counts the cases created since a time by an organization's subject, or by
// the organization: those stored and not being erased, and those whose erasure began
// (their receipts, which carry the case's owner and creation time).
func (s *Store) CountCases(ctx context.Context, org, subject string, since time.Time) (int, error) {
	filter := bson.M{"org_id": org, "created_at": bson.M{"$gte": since}}
	if org == "" {
		filter["org_id"] = bson.M{"$in": bson.A{"", nil}}
	}
	if subject != "" {
		filter["user_id"] = subject
	}
	erased, err := s.erasures.CountDocuments(ctx, filter)
	if err != nil {
		return 0, fmt.Errorf("count erased cases: %w", err)
	}
	filter["erasing"] = notErasing
	n, err := s.cases.CountDocuments(ctx, filter)
	if err != nil {
		return 0, fmt.Errorf("count cases: %w", err)
	}
	return int(n + erased), nil
}
