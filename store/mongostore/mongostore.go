// Package mongostore implements the store interfaces on MongoDB, or on any server that
// speaks its wire protocol, such as the FerretDB that `lexflow dev` embeds.
package mongostore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// Collection names.
const (
	CasesCollection       = "cases"
	TranscriptsCollection = "transcripts"
	MemoryCollection      = "memory"
	PartiesCollection     = "parties"
	// SubscriptionsCollection and TicketsCollection hold subscriptions and support tickets.
	SubscriptionsCollection = "subscriptions"
	TicketsCollection       = "support_tickets"
)

// Store is the MongoDB store.
type Store struct {
	client      *mongo.Client
	cases       *mongo.Collection
	transcripts *mongo.Collection
	memory      *mongo.Collection
	parties     *mongo.Collection
	subs        *mongo.Collection
	tickets     *mongo.Collection
	// caseLocks serialize this process's updates of a case's details (see UpdateDetails).
	caseLocks [64]sync.Mutex
}

var _ store.Store = (*Store)(nil)

// Open connects to uri, uses database db and makes sure the indexes exist.
func Open(ctx context.Context, uri, db string) (*Store, error) {
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetTimeout(30 * time.Second))
	if err != nil {
		return nil, fmt.Errorf("connect to MongoDB: %w", err)
	}
	s := &Store{
		client:      client,
		cases:       client.Database(db).Collection(CasesCollection),
		transcripts: client.Database(db).Collection(TranscriptsCollection),
		memory:      client.Database(db).Collection(MemoryCollection),
		parties:     client.Database(db).Collection(PartiesCollection),
		subs:        client.Database(db).Collection(SubscriptionsCollection),
		tickets:     client.Database(db).Collection(TicketsCollection),
	}
	if err := s.ensureIndexes(ctx); err != nil {
		_ = client.Disconnect(ctx)
		return nil, err
	}
	return s, nil
}

// ensureIndexes creates the indexes that lists and transcripts are read by. Each is
// created on its own under MongoDB's default name: FerretDB fails when asked to create
// unnamed indexes that already exist.
func (s *Store) ensureIndexes(ctx context.Context) error {
	indexes := []struct {
		coll *mongo.Collection
		name string
		keys bson.D
	}{
		{s.transcripts, "case_id_1_turn_no_1_seq_1", bson.D{{Key: "case_id", Value: 1}, {Key: "turn_no", Value: 1}, {Key: "seq", Value: 1}}},
		{s.transcripts, "user_id_1_created_at_1", bson.D{{Key: "user_id", Value: 1}, {Key: "created_at", Value: 1}}},
		{s.cases, "user_id_1_created_at_-1", bson.D{{Key: "user_id", Value: 1}, {Key: "created_at", Value: -1}}},
		{s.parties, "case_id_1_seq_1", bson.D{{Key: "case_id", Value: 1}, {Key: "seq", Value: 1}}},
		{s.tickets, "case_id_1_created_at_1", bson.D{{Key: "case_id", Value: 1}, {Key: "created_at", Value: 1}}},
	}
	for _, ix := range indexes {
		_, err := ix.coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: ix.keys, Options: options.Index().SetName(ix.name)})
		if err != nil {
			return fmt.Errorf("create index %s.%s: %w", ix.coll.Name(), ix.name, err)
		}
	}
	return nil
}

// Ping reports whether the server answers.
func (s *Store) Ping(ctx context.Context) error { return s.client.Ping(ctx, nil) }

// Close disconnects.
func (s *Store) Close(ctx context.Context) error { return s.client.Disconnect(ctx) }

// caseDoc is a case as stored.
type caseDoc struct {
	ID          string    `bson:"_id"`
	UserID      string    `bson:"user_id"`
	OrgID       string    `bson:"org_id,omitempty"`
	Description string    `bson:"description"`
	Language    string    `bson:"language"`
	Phase       string    `bson:"phase"`
	Status      string    `bson:"status"`
	Details     bson.M    `bson:"case_details"`
	Version     int64     `bson:"version"`
	Payment     *payment  `bson:"payment,omitempty"`
	CreatedAt   time.Time `bson:"created_at"`
	UpdatedAt   time.Time `bson:"updated_at"`
}

func (d caseDoc) toCase() store.Case {
	return store.Case{
		ID: d.ID, UserID: d.UserID, OrgID: d.OrgID, Description: d.Description,
		Language: d.Language, Phase: d.Phase, Status: d.Status, Details: plain(d.Details).(map[string]any),
		Version: d.Version, Payment: (*store.Payment)(d.Payment), CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// plain turns decoded BSON (bson.M, bson.A, bson.D) into plain maps and slices, so
// callers outside this package never see driver types.
func plain(v any) any {
	switch v := v.(type) {
	case nil:
		return map[string]any{}
	case bson.M:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = plainValue(x)
		}
		return m
	default:
		return plainValue(v)
	}
}

func plainValue(v any) any {
	switch v := v.(type) {
	case bson.M:
		return plain(v)
	case bson.D:
		m := make(map[string]any, len(v))
		for _, e := range v {
			m[e.Key] = plainValue(e.Value)
		}
		return m
	case bson.A:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plainValue(x)
		}
		return out
	case bson.DateTime:
		return v.Time().UTC()
	default:
		return v
	}
}

// CreateCase inserts c unless its ID exists, and returns the stored case.
func (s *Store) CreateCase(ctx context.Context, c store.Case) (store.Case, error) {
	now := time.Now().UTC()
	doc := caseDoc{
		ID: c.ID, UserID: c.UserID, OrgID: c.OrgID, Description: c.Description,
		Language: c.Language, Phase: c.Phase, Status: c.Status, Details: bson.M(c.Details),
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
	var d caseDoc
	err := s.cases.FindOne(ctx, bson.M{"_id": id}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return store.Case{}, fmt.Errorf("case %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Case{}, fmt.Errorf("find case: %w", err)
	}
	return d.toCase(), nil
}

// SetPhase moves a case to a phase and status.
func (s *Store) SetPhase(ctx context.Context, id, phase, status string) error {
	defer s.lockCase(id)()
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

// UpdateDetails applies dot-path updates to case_details in one write: replaced fields
// with $set, log fields with $push/$each, and the version with $inc.
func (s *Store) UpdateDetails(ctx context.Context, id string, expected int64, updates map[string]any) (int64, error) {
	fields, err := store.ParseUpdates(updates)
	if err != nil {
		return 0, err
	}
	set := bson.M{"updated_at": time.Now().UTC()}
	push := bson.M{}
	for _, f := range fields {
		if f.Append {
			push["case_details."+f.Path] = bson.M{"$each": f.Value}
		} else {
			set["case_details."+f.Path] = f.Value
		}
	}
	update := bson.M{"$set": set, "$inc": bson.M{"version": 1}}
	if len(push) > 0 {
		update["$push"] = push
	}
	defer s.lockCase(id)()
	if expected > 0 {
		return s.updateAt(ctx, id, bson.M{"_id": id, "version": expected}, update)
	}
	return s.updateAt(ctx, id, bson.M{"_id": id}, update)
}

// lockCase takes this process's lock on writes to a case document and returns its
// unlock. MongoDB applies one update to one document atomically; FerretDB, the embedded
// server, reads and replaces the document instead, so without the lock concurrent
// writers in one process could lose each other's changes.
func (s *Store) lockCase(id string) func() {
	h := fnv.New32a()
	h.Write([]byte(id))
	mu := &s.caseLocks[h.Sum32()%uint32(len(s.caseLocks))]
	mu.Lock()
	return mu.Unlock
}

// updateAt applies update to the case filter matches, and returns the new version. When
// the case exists but the filter does not match, its version was not the one expected.
func (s *Store) updateAt(ctx context.Context, id string, filter, update bson.M) (int64, error) {
	var d caseDoc
	err := s.cases.FindOneAndUpdate(ctx, filter, update,
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&d)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		current, err := s.GetCase(ctx, id)
		if err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("%w: case_details are at version %d, not %d; read them again", store.ErrVersionConflict, current.Version, filter["version"])
	case isWriteConflictWithShape(err):
		return 0, fmt.Errorf("%w: %v", store.ErrInvalidField, err)
	case err != nil:
		return 0, fmt.Errorf("update case details: %w", err)
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

// recordDoc is a transcript record as stored.
type recordDoc struct {
	ID        string            `bson:"_id"`
	CaseID    string            `bson:"case_id"`
	UserID    string            `bson:"user_id"`
	TurnID    string            `bson:"turn_id"`
	TurnNo    int               `bson:"turn_no"`
	Seq       int               `bson:"seq"`
	Role      string            `bson:"role"`
	Content   string            `bson:"content"`
	Tool      *store.ToolRecord `bson:"tool,omitempty"`
	CreatedAt time.Time         `bson:"created_at"`
}

// AppendRecords inserts records, skipping those whose ID is stored already.
func (s *Store) AppendRecords(ctx context.Context, recs ...store.Record) error {
	for _, r := range recs {
		doc := recordDoc(r)
		_, err := s.transcripts.InsertOne(ctx, doc)
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("insert transcript record: %w", err)
		}
	}
	return nil
}

// ListRecords returns a case's records in turn order.
func (s *Store) ListRecords(ctx context.Context, caseID string, beforeTurn, limit int) ([]store.Record, error) {
	filter := bson.M{"case_id": caseID}
	if beforeTurn > 0 {
		filter["turn_no"] = bson.M{"$lt": beforeTurn}
	}
	opts := options.Find().SetSort(bson.D{{Key: "turn_no", Value: -1}, {Key: "seq", Value: -1}})
	if limit > 0 {
		opts.SetLimit(int64(limit))
	}
	cur, err := s.transcripts.Find(ctx, filter, opts)
	if err != nil {
		return nil, fmt.Errorf("find transcript: %w", err)
	}
	var docs []recordDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	out := make([]store.Record, len(docs))
	for i, d := range docs {
		out[len(docs)-1-i] = store.Record(d)
	}
	return out, nil
}

// memoryDoc is a user's memory as stored; its ID is the user's.
type memoryDoc struct {
	UserID    string    `bson:"_id"`
	Text      string    `bson:"text"`
	UpdatedAt time.Time `bson:"updated_at"`
}

// GetMemory returns a user's memory, empty when there is none.
func (s *Store) GetMemory(ctx context.Context, userID string) (store.Memory, error) {
	var d memoryDoc
	err := s.memory.FindOne(ctx, bson.M{"_id": userID}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return store.Memory{UserID: userID}, nil
	}
	if err != nil {
		return store.Memory{}, fmt.Errorf("find memory: %w", err)
	}
	return store.Memory{UserID: d.UserID, Text: d.Text, UpdatedAt: d.UpdatedAt}, nil
}

// PutMemory replaces a user's memory.
func (s *Store) PutMemory(ctx context.Context, userID, text string) (store.Memory, error) {
	d := memoryDoc{UserID: userID, Text: text, UpdatedAt: time.Now().UTC()}
	_, err := s.memory.ReplaceOne(ctx, bson.M{"_id": userID}, d, options.Replace().SetUpsert(true))
	if err != nil {
		return store.Memory{}, fmt.Errorf("store memory: %w", err)
	}
	return store.Memory{UserID: userID, Text: text, UpdatedAt: d.UpdatedAt}, nil
}

// partyDoc is a party as stored; its _id is "<caseID>/<partyN>", so two writers cannot
// take the same number.
type partyDoc struct {
	ID          string    `bson:"_id"`
	CaseID      string    `bson:"case_id"`
	Seq         int       `bson:"seq"`
	PartyID     string    `bson:"party_id"`
	FirstName   string    `bson:"first_name,omitempty"`
	LastName    string    `bson:"last_name,omitempty"`
	CompanyName string    `bson:"company_name,omitempty"`
	Aliases     []string  `bson:"aliases,omitempty"`
	CNP         string    `bson:"cnp,omitempty"`
	CUI         string    `bson:"cui,omitempty"`
	Address     string    `bson:"address,omitempty"`
	Email       string    `bson:"email,omitempty"`
	CreatedAt   time.Time `bson:"created_at"`
}

// AddParty stores a party under the case's next number, trying the next one when a
// concurrent writer took it.
func (s *Store) AddParty(ctx context.Context, p store.Party) (store.Party, error) {
	n, err := s.parties.CountDocuments(ctx, bson.M{"case_id": p.CaseID})
	if err != nil {
		return store.Party{}, fmt.Errorf("count parties: %w", err)
	}
	p.CreatedAt = time.Now().UTC()
	for seq := int(n); seq < int(n)+100; seq++ {
		p.ID = fmt.Sprintf("party%d", seq)
		d := partyDoc{ID: p.CaseID + "/" + p.ID, CaseID: p.CaseID, Seq: seq, PartyID: p.ID, FirstName: p.FirstName,
			LastName: p.LastName, CompanyName: p.CompanyName, Aliases: p.Aliases, CNP: p.CNP, CUI: p.CUI,
			Address: p.Address, Email: p.Email, CreatedAt: p.CreatedAt}
		_, err := s.parties.InsertOne(ctx, d)
		if err == nil {
			return p, nil
		}
		if !mongo.IsDuplicateKeyError(err) {
			return store.Party{}, fmt.Errorf("insert party: %w", err)
		}
	}
	return store.Party{}, fmt.Errorf("insert party: no free party number")
}

// ListParties returns a case's parties in the order they were added.
func (s *Store) ListParties(ctx context.Context, caseID string) ([]store.Party, error) {
	cur, err := s.parties.Find(ctx, bson.M{"case_id": caseID}, options.Find().SetSort(bson.D{{Key: "seq", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("find parties: %w", err)
	}
	var docs []partyDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read parties: %w", err)
	}
	out := make([]store.Party, len(docs))
	for i, d := range docs {
		out[i] = store.Party{ID: d.PartyID, CaseID: d.CaseID, FirstName: d.FirstName, LastName: d.LastName,
			CompanyName: d.CompanyName, Aliases: d.Aliases, CNP: d.CNP, CUI: d.CUI, Address: d.Address, Email: d.Email,
			CreatedAt: d.CreatedAt}
	}
	return out, nil
}
