// Package firestore implements the store interfaces on Google Cloud Firestore, or on
// its emulator (FIRESTORE_EMULATOR_HOST): where Relex, one of the systems Lexflow
// unifies, kept its cases.
//
// Each case's transcript, parties, tickets and events live in subcollections of its
// document (cases/<id>/records and so on), so reading them needs no index across cases
// and erasing a case deletes one tree. Read-modify-write updates run in transactions.
// The emulator that the tests and `lexflow dev` run (@firestore-emulator/server) does
// not isolate transactions, so this process's own writers of a document also take
// turns under a lock (see lock): on the emulator, run one process that writes.
//
// The queries need the composite indexes in deploy/firestore/firestore.indexes.json.
package firestore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
	"sync"

	fs "cloud.google.com/go/firestore"
	"google.golang.org/api/option"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/lexflow/lexflow/store"
)

// Collection names: the same as MongoDB's, and the subcollections of a case.
const (
	CasesCollection         = "cases"
	MemoryCollection        = "memory"
	SubscriptionsCollection = "subscriptions"
	SettingsCollection      = "settings"
	CheckoutsCollection     = "checkouts"
	AuditCollection         = "audit"
	TokenUseCollection      = "token_use"
	BudgetsCollection       = "budgets"
	KeysCollection          = "keys"
	ErasuresCollection      = "erasures"
	// SourceFailuresCollection holds the research sources' recent failures.
	SourceFailuresCollection = "source_failures"
	// CourtFilesCollection holds the court files cases link, with the hearings seen.
	CourtFilesCollection = "court_files"
	// DeadlinesCollection holds the cases' deadlines, beside the cases rather than
	// under them, so that a user's deadlines across cases are one query.
	DeadlinesCollection = "deadlines"
	// FeedsCollection holds the hashes of users' calendar feed secrets.
	FeedsCollection = "feeds"
	// NotificationSettingsCollection, NotificationsCollection and
	// NotificationSendsCollection hold users' notification settings, in-app
	// notifications and the record of every send.
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
	// RecordsCollection and the others below are subcollections of a case's document.
	RecordsCollection = "records"
	PartiesCollection = "parties"
	TicketsCollection = "support_tickets"
	EventsCollection  = "events"
)

// Store is the Firestore store.
type Store struct {
	client *fs.Client
	// locks serialize this process's writers of one document (see lock).
	locks [64]sync.Mutex
}

var _ store.Store = (*Store)(nil)

// Open connects to the project's default database: the emulator at
// FIRESTORE_EMULATOR_HOST when that is set, else Firestore with the application's
// default credentials. opts are added to the client's.
func Open(ctx context.Context, project string, opts ...option.ClientOption) (*Store, error) {
	if project == "" {
		return nil, errors.New("firestore: a project ID is needed (FIRESTORE_PROJECT_ID)")
	}
	client, err := fs.NewClient(ctx, project, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to Firestore: %w", err)
	}
	return &Store{client: client}, nil
}

// Ping reads one document, which answers whether or not it exists.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.client.Collection(SettingsCollection).Doc(promptsDocID).Get(ctx)
	if err != nil && !notFound(err) {
		return fmt.Errorf("firestore: %w", err)
	}
	return nil
}

// Close releases the connection.
func (s *Store) Close(context.Context) error { return s.client.Close() }

// DocID is the Firestore document ID of an ID: the ID itself, path-escaped, so that
// IDs with a slash, or those Firestore reserves (".", "..", "__x__"), stay usable and
// no two IDs share a document.
func DocID(id string) string {
	d := url.PathEscape(id)
	if d == "." || d == ".." || strings.HasPrefix(d, "__") {
		d = fmt.Sprintf("%%%02X", d[0]) + d[1:]
	}
	return d
}

// doc is the document of an ID in a top-level collection.
func (s *Store) doc(collection, id string) *fs.DocumentRef {
	return s.client.Collection(collection).Doc(DocID(id))
}

// caseDoc is a case's document.
func (s *Store) caseDoc(id string) *fs.DocumentRef { return s.doc(CasesCollection, id) }

// sub is a subcollection of a case's document.
func (s *Store) sub(caseID, collection string) *fs.CollectionRef {
	return s.caseDoc(caseID).Collection(collection)
}

// notFound reports whether Firestore answered that a document does not exist.
func notFound(err error) bool { return status.Code(err) == codes.NotFound }

// exists reports whether Firestore refused to create a document that exists.
func exists(err error) bool { return status.Code(err) == codes.AlreadyExists }

// lock takes this process's lock on writes to a document and returns its unlock.
// Firestore isolates transactions; the emulator does not, so without the lock two
// writers in one process could both read a case and each write back its own change.
// Writers in other processes are not held back on the emulator.
func (s *Store) lock(ref *fs.DocumentRef) func() {
	h := fnv.New32a()
	h.Write([]byte(ref.Path))
	mu := &s.locks[h.Sum32()%uint32(len(s.locks))]
	mu.Lock()
	return mu.Unlock
}

// update runs fn in a transaction under ref's lock.
func (s *Store) update(ctx context.Context, ref *fs.DocumentRef, fn func(ctx context.Context, tx *fs.Transaction) error) error {
	defer s.lock(ref)()
	return s.client.RunTransaction(ctx, fn)
}

// read reads ref, in tx when it is not nil, into a T; a document that does not exist
// is store.ErrNotFound, wrapped with what names it.
func read[T any](ctx context.Context, tx *fs.Transaction, ref *fs.DocumentRef, what string) (T, error) {
	var d T
	var snap *fs.DocumentSnapshot
	var err error
	if tx != nil {
		snap, err = tx.Get(ref)
	} else {
		snap, err = ref.Get(ctx)
	}
	if notFound(err) {
		return d, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	if err == nil {
		err = snap.DataTo(&d)
	}
	if err != nil {
		return d, fmt.Errorf("read %s: %w", what, err)
	}
	return d, nil
}

// all runs q and decodes each document it finds into a T.
func all[T any](ctx context.Context, q fs.Query) ([]T, error) {
	docs, err := q.Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	out := make([]T, len(docs))
	for i, d := range docs {
		if err := d.DataTo(&out[i]); err != nil {
			return nil, fmt.Errorf("decode %s: %w", d.Ref.Path, err)
		}
	}
	return out, nil
}
