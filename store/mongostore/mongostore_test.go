package mongostore_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
)

// uri is the embedded FerretDB that TestMain starts for the package's tests.
var uri string

func TestMain(m *testing.M) { os.Exit(testenv.MainWithFerretDB(m.Run, &uri)) }

// open opens a store on a database of its own.
func open(t *testing.T) *mongostore.Store {
	t.Helper()
	return openDB(t, fmt.Sprintf("test_%d", time.Now().UnixNano()))
}

// openDB opens a store on database db, and closes it when t ends.
func openDB(t *testing.T, db string) *mongostore.Store {
	t.Helper()
	ctx := context.Background()
	s, err := mongostore.Open(ctx, uri, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(ctx) })
	return s
}

// TestOpenAgainKeepsIndexes opens a database twice, as every restart does: creating the
// indexes again must succeed on FerretDB, which refuses to create unnamed indexes that
// exist, and leave each index there under its name.
func TestOpenAgainKeepsIndexes(t *testing.T) {
	db := fmt.Sprintf("test_%d", time.Now().UnixNano())
	openDB(t, db)
	openDB(t, db)

	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	for coll, want := range map[string][]string{
		mongostore.CasesCollection:       {"user_id_1_created_at_-1", "org_id_1_created_at_-1"},
		mongostore.TranscriptsCollection: {"case_id_1_turn_no_1_seq_1", "user_id_1_created_at_1"},
		mongostore.PartiesCollection:     {"case_id_1_seq_1"},
		mongostore.TicketsCollection:     {"case_id_1_created_at_1"},
		mongostore.EventsCollection:      {"case_id_1_eid_1"},
	} {
		names, err := client.Database(db).Collection(coll).Indexes().ListSpecifications(t.Context())
		if err != nil {
			t.Fatalf("list indexes of %s: %v", coll, err)
		}
		var got []string
		for _, ix := range names {
			got = append(got, ix.Name)
		}
		for _, name := range want {
			if !slices.Contains(got, name) {
				t.Errorf("%s has indexes %v, want %s among them", coll, got, name)
			}
		}
	}
}

// TestDetailsArePlainValues checks that what the driver decodes (bson.D, bson.A,
// bson.DateTime) reaches callers as the maps, slices and times of plain Go, at any depth.
func TestDetailsArePlainValues(t *testing.T) {
	s, ctx := open(t), t.Context()
	at := time.Date(2026, 3, 4, 5, 6, 7, 8_000_000, time.FixedZone("EET", 2*60*60))
	details := store.NewDetails("deposit")
	details["timeline"] = []any{map[string]any{"at": at, "events": []any{map[string]any{"what": "lease ended", "tags": []any{"a", "b"}}}}}
	if _, err := s.CreateCase(ctx, store.Case{ID: "plain", UserID: "alice", Details: details}); err != nil {
		t.Fatal(err)
	}
	_, err := s.UpdateDetails(ctx, "plain", 0, "", map[string]any{
		"evidence.items": []any{map[string]any{"kind": "photo", "taken": at, "sizes": []any{1, 2.5}}},
		"facts":          []any{map[string]any{"fact": "paid", "on": at}},
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.GetCase(ctx, "plain")
	if err != nil {
		t.Fatal(err)
	}
	checkPlain(t, "case_details", c.Details)
	timeline := c.Details["timeline"].([]any)[0].(map[string]any)
	if got, ok := timeline["at"].(time.Time); !ok || !got.Equal(at) || got.Location() != time.UTC {
		t.Errorf("timeline[0].at = %#v, want %v in UTC", timeline["at"], at)
	}

	tk, err := s.CreateTicket(ctx, store.Ticket{ID: "plain-ticket", CaseID: "plain", Snapshot: c.Details})
	if err != nil {
		t.Fatal(err)
	}
	checkPlain(t, "agent_state_snapshot", tk.Snapshot)

	// A case stored without details reads back with an empty map, not a nil one.
	if _, err := s.CreateCase(ctx, store.Case{ID: "no-details", UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	if c, err := s.GetCase(ctx, "no-details"); err != nil || c.Details == nil {
		t.Errorf("details of a case stored without = %#v, %v; want an empty map", c.Details, err)
	}
}

// checkPlain fails t if v holds anything but plain Go values.
func checkPlain(t *testing.T, path string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			checkPlain(t, path+"."+k, x)
		}
	case []any:
		for i, x := range v {
			checkPlain(t, fmt.Sprintf("%s[%d]", path, i), x)
		}
	case nil, string, bool, int32, int64, float64, time.Time:
	default:
		t.Errorf("%s is a %T", path, v)
	}
}

// TestOpsAreTrimmed checks that a case keeps only its latest store.MaxOps update ops,
// on FerretDB too, which ignores $push's $slice.
func TestOpsAreTrimmed(t *testing.T) {
	db := fmt.Sprintf("test_%d", time.Now().UnixNano())
	s, ctx := openDB(t, db), t.Context()
	id := "ops"
	if _, err := s.CreateCase(ctx, store.Case{ID: id, UserID: "u", Details: store.NewDetails("d")}); err != nil {
		t.Fatal(err)
	}
	for i := range store.MaxOps + 5 {
		if _, err := s.UpdateDetails(ctx, id, 0, fmt.Sprintf("op-%d", i), map[string]any{"summary.current": fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	var raw struct {
		Ops []string `bson:"ops"`
	}
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	if err := client.Database(db).Collection(mongostore.CasesCollection).FindOne(ctx, bson.M{"_id": id}).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Ops) != store.MaxOps || raw.Ops[len(raw.Ops)-1] != fmt.Sprintf("op-%d", store.MaxOps+4) {
		t.Errorf("the case keeps %d ops ending %v; want the latest %d", len(raw.Ops), raw.Ops[max(len(raw.Ops)-1, 0):], store.MaxOps)
	}
}

// TestOpenMigratesMemories stores memories as earlier versions did, under the bare
// subject, and opens the store again: a memory whose subject's cases name one
// organization moves to that organization's user; one whose cases name two moves
// where nobody reads it; a memory already written under the new ID is kept.
func TestOpenMigratesMemories(t *testing.T) {
	db := fmt.Sprintf("test_%d", time.Now().UnixNano())
	s, ctx := openDB(t, db), t.Context()
	for _, c := range []store.Case{
		{ID: "c1", UserID: "ana", OrgID: "acme"}, {ID: "c2", UserID: "ana", OrgID: "acme"},
		{ID: "c3", UserID: "bo", OrgID: "acme"}, {ID: "c4", UserID: "bo", OrgID: "globex"},
		{ID: "c5", UserID: "cy"},
	} {
		if _, err := s.CreateCase(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	memory := client.Database(db).Collection(mongostore.MemoryCollection)
	for _, subject := range []string{"ana", "bo", "cy", "dee"} {
		if _, err := memory.InsertOne(ctx, bson.M{"_id": subject, "text": subject + "'s memory", "updated_at": time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.PutMemory(ctx, store.OwnerID("", "cy"), "cy's newer memory"); err != nil {
		t.Fatal(err)
	}

	s = openDB(t, db)
	for owner, want := range map[string]string{
		store.OwnerID("acme", "ana"):  "ana's memory",
		store.OwnerID("", "ana"):      "",
		store.OwnerID("acme", "bo"):   "",
		store.OwnerID("globex", "bo"): "",
		store.OwnerID("", "cy"):       "cy's newer memory",
		store.OwnerID("", "dee"):      "",
		"ana":                         "",
	} {
		if m, err := s.GetMemory(ctx, owner); err != nil || m.Text != want {
			t.Errorf("GetMemory(%q) = %q, %v; want %q", owner, m.Text, err, want)
		}
	}
	if n, err := memory.CountDocuments(ctx, bson.M{"_id": bson.M{"$in": []string{"ana", "bo", "cy", "dee"}}}); err != nil || n != 0 {
		t.Errorf("%d memories are still under a bare subject (%v)", n, err)
	}
	if n, err := memory.CountDocuments(ctx, bson.M{"_id": bson.M{"$in": []string{"unclaimed:bo", "unclaimed:dee"}}}); err != nil || n != 2 {
		t.Errorf("%d ambiguous memories set aside, want 2 (%v)", n, err)
	}
}

// TestErasureMarkWithoutReceipt: a worker that died between marking a case as being
// erased and storing the receipt leaves the mark alone; the erasure is stalled, and
// beginning it again stores the receipt as the first request asked.
func TestErasureMarkWithoutReceipt(t *testing.T) {
	ctx := t.Context()
	db := fmt.Sprintf("test_%d", time.Now().UnixNano())
	s := openDB(t, db)
	c, err := s.CreateCase(ctx, store.Case{ID: "c-marked", UserID: "u", OrgID: "o", Description: "d", Language: "en",
		Phase: "active", Status: "open", Details: store.NewDetails("d")})
	if err != nil {
		t.Fatal(err)
	}
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	asked := time.Now().Add(-2 * time.Hour).UTC().Truncate(time.Millisecond)
	if _, err := client.Database(db).Collection(mongostore.CasesCollection).UpdateOne(ctx, bson.M{"_id": c.ID},
		bson.M{"$set": bson.M{"erasing": bson.M{"at": asked, "by": "the-owner", "reason": schemas.ErasureRequested}}}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.StalledErasures(ctx, time.Now().Add(-time.Hour), 10); err != nil || !slices.Equal(got, []string{c.ID}) {
		t.Fatalf("StalledErasures = %v, %v; want the marked case", got, err)
	}
	e, err := s.BeginErasure(ctx, schemas.Erasure{CaseID: c.ID, RequestedBy: schemas.ErasureRetention, Reason: schemas.ErasureRetention})
	if err != nil || e.RequestedBy != "the-owner" || e.Reason != schemas.ErasureRequested || !e.RequestedAt.Equal(asked) {
		t.Fatalf("BeginErasure = %+v, %v; want the first request's receipt", e, err)
	}
}

// TestAuditReadsDocumentDetails: audit entries written before the detail became a
// JSON text, with the detail as a document, read back as they were.
func TestAuditReadsDocumentDetails(t *testing.T) {
	db := fmt.Sprintf("test_%d", time.Now().UnixNano())
	s, ctx := openDB(t, db), t.Context()
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	at := time.Now().UTC().Truncate(time.Millisecond)
	if _, err := client.Database(db).Collection(mongostore.AuditCollection).InsertOne(ctx, bson.M{"_id": "old", "at": at, "actor": "sam",
		"roles": bson.A{"support"}, "action": "case.resume", "org_id": "acme", "detail": bson.M{"note": "checked", "n": 2.0}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.ListAudit(ctx, store.AuditFilter{OrgID: "acme"})
	if err != nil || len(got) != 1 {
		t.Fatalf("ListAudit = %v, %v", got, err)
	}
	if want := map[string]any{"note": "checked", "n": 2.0}; fmt.Sprint(got[0].Detail) != fmt.Sprint(want) {
		t.Errorf("Detail = %#v, want %#v", got[0].Detail, want)
	}
}
