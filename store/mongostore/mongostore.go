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
	// SettingsCollection holds settings every process shares: the prompts version.
	SettingsCollection = "settings"
	// CheckoutsCollection holds payment checkouts, AuditCollection the audit log.
	CheckoutsCollection = "checkouts"
	AuditCollection     = "audit"
	// TokenUseCollection holds one document per model call, BudgetsCollection the
	// budgets admins set.
	TokenUseCollection = "token_use"
	BudgetsCollection  = "budgets"
	// EventsCollection holds the cases' event logs.
	EventsCollection = "events"
	// KeysCollection holds the wrapped data keys.
	KeysCollection = "keys"
	// ErasuresCollection holds the receipts of erased cases.
	ErasuresCollection = "erasures"
	// SourceFailuresCollection holds the research sources' recent failures.
	SourceFailuresCollection = "source_failures"
	// CourtFilesCollection holds the court files cases link, with the hearings seen.
	CourtFilesCollection = "court_files"
	// DeadlinesCollection holds the cases' deadlines.
	DeadlinesCollection = "deadlines"
	// FeedsCollection holds the hashes of users' calendar feed secrets.
	FeedsCollection = "feeds"
	// NotificationSettingsCollection holds users' notification settings,
	// NotificationsCollection their in-app notifications, NotificationSendsCollection
	// the record of every send.
	NotificationSettingsCollection = "notification_settings"
	NotificationsCollection        = "notifications"
	NotificationSendsCollection    = "notification_sends"
	// CurrentArticlesCollection holds the current texts of articles an official
	// service gave.
	CurrentArticlesCollection = "current_articles"
	// DisclosuresCollection holds the organizations' settings of the AI disclosure
	// on drafts.
	DisclosuresCollection = "disclosures"
	// MemoryFactsCollection holds the facts users let Lexflow remember across cases.
	MemoryFactsCollection = "memory_facts"
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
	settings    *mongo.Collection
	checkouts   *mongo.Collection
	audit       *mongo.Collection
	tokenUse    *mongo.Collection
	budgets     *mongo.Collection
	events      *mongo.Collection
	keys        *mongo.Collection
	erasures    *mongo.Collection
	// sourceFailures holds the research sources' failures of the last window.
	sourceFailures *mongo.Collection
	courtFiles     *mongo.Collection
	deadlines      *mongo.Collection
	feeds          *mongo.Collection
	// notifySettings, notifications and sends hold users' notification settings,
	// in-app notifications and sends.
	notifySettings *mongo.Collection
	notifications  *mongo.Collection
	sends          *mongo.Collection
	// currentArticles holds the current texts of articles, by doc_id.
	currentArticles *mongo.Collection
	// memoryFacts holds users' memory facts.
	memoryFacts *mongo.Collection
	// turns holds each turn's records together, on FerretDB only (see turns.go).
	turns *mongo.Collection
	// disclosures holds the organizations' disclosure settings, by organization.
	disclosures *mongo.Collection
	// lastSeen holds, per case, the last event number this process saw stored.
	lastSeen sync.Map
	// locks serialize this process's read-modify-write updates (see lock).
	locks [64]sync.Mutex
}

var _ store.Store = (*Store)(nil)

// Open connects to uri, uses database db, makes sure the indexes exist, and migrates
// what earlier versions stored differently (see migrateMemories, and on FerretDB
// migrateTurns).
func Open(ctx context.Context, uri, db string) (*Store, error) {
	return open(ctx, options.Client().ApplyURI(uri), db)
}

func open(ctx context.Context, opts *options.ClientOptions, db string) (*Store, error) {
	client, err := mongo.Connect(opts.SetTimeout(30 * time.Second))
	if err != nil {
		return nil, fmt.Errorf("connect to MongoDB: %w", err)
	}
	s := &Store{
		client:          client,
		cases:           client.Database(db).Collection(CasesCollection),
		transcripts:     client.Database(db).Collection(TranscriptsCollection),
		memory:          client.Database(db).Collection(MemoryCollection),
		parties:         client.Database(db).Collection(PartiesCollection),
		subs:            client.Database(db).Collection(SubscriptionsCollection),
		tickets:         client.Database(db).Collection(TicketsCollection),
		settings:        client.Database(db).Collection(SettingsCollection),
		checkouts:       client.Database(db).Collection(CheckoutsCollection),
		audit:           client.Database(db).Collection(AuditCollection),
		tokenUse:        client.Database(db).Collection(TokenUseCollection),
		budgets:         client.Database(db).Collection(BudgetsCollection),
		events:          client.Database(db).Collection(EventsCollection),
		keys:            client.Database(db).Collection(KeysCollection),
		erasures:        client.Database(db).Collection(ErasuresCollection),
		sourceFailures:  client.Database(db).Collection(SourceFailuresCollection),
		notifySettings:  client.Database(db).Collection(NotificationSettingsCollection),
		notifications:   client.Database(db).Collection(NotificationsCollection),
		sends:           client.Database(db).Collection(NotificationSendsCollection),
		currentArticles: client.Database(db).Collection(CurrentArticlesCollection),
		disclosures:     client.Database(db).Collection(DisclosuresCollection),
		courtFiles:      client.Database(db).Collection(CourtFilesCollection),
		deadlines:       client.Database(db).Collection(DeadlinesCollection),
		feeds:           client.Database(db).Collection(FeedsCollection),
		memoryFacts:     client.Database(db).Collection(MemoryFactsCollection),
	}
	if err := s.ensureIndexes(ctx); err != nil {
		_ = client.Disconnect(ctx)
		return nil, err
	}
	if err := s.migrateMemories(ctx); err != nil {
		_ = client.Disconnect(ctx)
		return nil, err
	}
	ferret, err := isFerretDB(ctx, client)
	if err != nil {
		_ = client.Disconnect(ctx)
		return nil, err
	}
	if ferret {
		s.turns = client.Database(db).Collection(TurnsCollection)
		if err := s.migrateTurns(ctx); err != nil {
			_ = client.Disconnect(ctx)
			return nil, err
		}
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
		{s.cases, "org_id_1_created_at_-1", bson.D{{Key: "org_id", Value: 1}, {Key: "created_at", Value: -1}}},
		{s.cases, "org_id_1_status_1_updated_at_1", bson.D{{Key: "org_id", Value: 1}, {Key: "status", Value: 1}, {Key: "updated_at", Value: 1}}},
		{s.cases, "erasing.at_1", bson.D{{Key: "erasing.at", Value: 1}}},
		{s.erasures, "user_id_1_created_at_-1", bson.D{{Key: "user_id", Value: 1}, {Key: "created_at", Value: -1}}},
		{s.erasures, "org_id_1_created_at_-1", bson.D{{Key: "org_id", Value: 1}, {Key: "created_at", Value: -1}}},
		{s.erasures, "requested_at_1", bson.D{{Key: "requested_at", Value: 1}}},
		{s.parties, "case_id_1_seq_1", bson.D{{Key: "case_id", Value: 1}, {Key: "seq", Value: 1}}},
		{s.tickets, "case_id_1_created_at_1", bson.D{{Key: "case_id", Value: 1}, {Key: "created_at", Value: 1}}},
		{s.audit, "at_-1", bson.D{{Key: "at", Value: -1}}},
		{s.audit, "org_id_1_at_-1", bson.D{{Key: "org_id", Value: 1}, {Key: "at", Value: -1}}},
		{s.sourceFailures, "tool_1_at_1", bson.D{{Key: "tool", Value: 1}, {Key: "at", Value: 1}}},
		{s.courtFiles, "case_id_1_linked_at_1", bson.D{{Key: "case_id", Value: 1}, {Key: "linked_at", Value: 1}}},
		{s.feeds, "hash_1", bson.D{{Key: "hash", Value: 1}}},
		{s.deadlines, "case_id_1_ends_at_1", bson.D{{Key: "case_id", Value: 1}, {Key: "ends_at", Value: 1}}},
		{s.deadlines, "owner_1_ends_at_1", bson.D{{Key: "owner", Value: 1}, {Key: "ends_at", Value: 1}}},
		{s.deadlines, "responsible_1_ends_at_1", bson.D{{Key: "responsible", Value: 1}, {Key: "ends_at", Value: 1}}},
		{s.notifications, "owner_1_created_at_-1", bson.D{{Key: "owner", Value: 1}, {Key: "created_at", Value: -1}}},
		{s.notifications, "owner_1_unread_1", bson.D{{Key: "owner", Value: 1}, {Key: "unread", Value: 1}}},
		{s.notifications, "case_id_1", bson.D{{Key: "case_id", Value: 1}}},
		{s.sends, "owner_1", bson.D{{Key: "owner", Value: 1}}},
		{s.sends, "case_id_1", bson.D{{Key: "case_id", Value: 1}}},
		{s.memoryFacts, "owner_1_created_at_1", bson.D{{Key: "owner", Value: 1}, {Key: "created_at", Value: 1}}},
		{s.memoryFacts, "case_id_1", bson.D{{Key: "case_id", Value: 1}}},
	}
	for _, ix := range indexes {
		_, err := ix.coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: ix.keys, Options: options.Index().SetName(ix.name)})
		if err != nil {
			return fmt.Errorf("create index %s.%s: %w", ix.coll.Name(), ix.name, err)
		}
	}
	// An event's ID is stored once per case: what makes appending it idempotent.
	_, err := s.events.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "case_id", Value: 1}, {Key: "eid", Value: 1}},
		Options: options.Index().SetName("case_id_1_eid_1").SetUnique(true)})
	if err != nil {
		return fmt.Errorf("create index events.case_id_1_eid_1: %w", err)
	}
	return nil
}

// Ping reports whether the server answers.
func (s *Store) Ping(ctx context.Context) error { return s.client.Ping(ctx, nil) }

// Close disconnects.
func (s *Store) Close(ctx context.Context) error { return s.client.Disconnect(ctx) }

// findOne decodes into a T the document of coll that filter selects; no document is
// store.ErrNotFound. what names the document in errors.
func findOne[T any](ctx context.Context, coll *mongo.Collection, filter any, what string, opts ...options.Lister[options.FindOneOptions]) (T, error) {
	var d T
	err := coll.FindOne(ctx, filter, opts...).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return d, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	if err != nil {
		return d, fmt.Errorf("read %s: %w", what, err)
	}
	return d, nil
}

// findAll decodes into a T each document of coll that filter selects. what names the
// documents in errors.
func findAll[T any](ctx context.Context, coll *mongo.Collection, filter any, what string, opts ...options.Lister[options.FindOptions]) ([]T, error) {
	cur, err := coll.Find(ctx, filter, opts...)
	if err != nil {
		return nil, fmt.Errorf("find %s: %w", what, err)
	}
	var docs []T
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	return docs, nil
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

// lock takes this process's lock on read-modify-write updates of the documents key
// names ("case:<id>", "subscription:<id>", "tickets:<case id>") and returns its unlock.
// MongoDB applies one update to one document atomically; FerretDB, the embedded server,
// reads the documents and then replaces them, so without the lock concurrent writers in
// one process could lose each other's changes or both take the last credit. Writers in
// other processes are not held back: run FerretDB with one process writing (`lexflow
// dev`), or MongoDB.
func (s *Store) lock(key string) func() {
	h := fnv.New32a()
	h.Write([]byte(key))
	mu := &s.locks[h.Sum32()%uint32(len(s.locks))]
	mu.Lock()
	return mu.Unlock
}
