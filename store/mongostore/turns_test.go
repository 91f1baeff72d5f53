package mongostore_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
	"github.com/lexflow/lexflow/store/storetest"
)

// TestConformanceAsOnMongoDB runs the conformance suite on the transcripts' MongoDB
// path, the query on the records collection, which FerretDB does not take.
func TestConformanceAsOnMongoDB(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return mongostore.WithoutTurns(open(t)) })
}

// turnRecords stores turns 1..turns of a case, three records each, and a notice
// after turn 0, and returns them in order.
func turnRecords(t *testing.T, s store.Store, caseID string, turns int) []store.Record {
	t.Helper()
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	recs := []store.Record{{ID: caseID + ":notice", CaseID: caseID, UserID: "u", TurnNo: 0, Seq: 1001, Role: schemas.RecordAssistant, Content: "tier 2", CreatedAt: at}}
	for turn := 1; turn <= turns; turn++ {
		for seq, role := range []schemas.RecordRole{schemas.RecordUser, schemas.RecordTool, schemas.RecordAssistant} {
			recs = append(recs, store.Record{ID: fmt.Sprintf("%s:%d:%d", caseID, turn, seq), CaseID: caseID, UserID: "u",
				TurnID: fmt.Sprintf("%s:%d", caseID, turn), TurnNo: turn, Seq: seq, Role: role,
				Content: fmt.Sprintf("turn %d %s", turn, role), CreatedAt: at.Add(time.Duration(turn) * time.Minute)})
		}
	}
	for _, r := range recs {
		if err := s.AppendRecords(t.Context(), r); err != nil {
			t.Fatal(err)
		}
	}
	return recs
}

func recordIDs(recs []store.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

// TestListRecordsReadsByID: on FerretDB, a model call's read of the last records
// finds each document by _id, the one filter FerretDB narrows a read by, and reads
// only the turns it needs, however many records the store holds.
func TestListRecordsReadsByID(t *testing.T) {
	ctx := t.Context()
	db := fmt.Sprintf("test_%d", time.Now().UnixNano())
	var mu sync.Mutex
	var finds []bson.Raw
	watching := false
	monitor := &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		mu.Lock()
		defer mu.Unlock()
		if watching && e.CommandName == "find" {
			finds = append(finds, slices.Clone(e.Command.Lookup("filter").Document()))
		}
	}}
	s, err := mongostore.OpenWith(ctx, options.Client().ApplyURI(uri).SetMonitor(monitor), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	want := turnRecords(t, s, "case-a", 30)
	turnRecords(t, s, "case-b", 30)

	mu.Lock()
	watching = true
	mu.Unlock()
	got, err := s.ListRecords(ctx, "case-a", 31, 20)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	watching = false
	mu.Unlock()
	if !slices.Equal(recordIDs(got), recordIDs(want[len(want)-20:])) {
		t.Errorf("the last 20 records = %v\nwant %v", recordIDs(got), recordIDs(want[len(want)-20:]))
	}
	// Turn 0's document, then turns 30 down to 24: 7 turns of 3 hold the last 20.
	if len(finds) != 8 {
		t.Errorf("ListRecords made %d reads, want 8: %v", len(finds), finds)
	}
	for _, f := range finds {
		elems, err := f.Elements()
		if err != nil || len(elems) != 1 || elems[0].Key() != "_id" || elems[0].Value().Type != bson.TypeString {
			t.Errorf("ListRecords read with filter %v; FerretDB narrows only an exact string _id", f)
		}
	}
	// The query that MongoDB answers from its index agrees.
	scan, err := mongostore.WithoutTurns(openDB(t, db)).ListRecords(ctx, "case-a", 31, 20)
	if err != nil || !slices.Equal(recordIDs(scan), recordIDs(got)) {
		t.Errorf("the records collection's last 20 = %v, %v", recordIDs(scan), err)
	}
}

// TestOpenMigratesTranscripts: records stored before the turn documents existed are
// read the same once the store is opened again, and erasing the case erases them.
func TestOpenMigratesTranscripts(t *testing.T) {
	ctx := t.Context()
	db := fmt.Sprintf("test_%d", time.Now().UnixNano())
	want := turnRecords(t, mongostore.WithoutTurns(openDB(t, db)), "case-old", 5)
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	// An earlier version left no mark that the migration ran.
	if _, err := client.Database(db).Collection(mongostore.SettingsCollection).DeleteMany(ctx, bson.M{}); err != nil {
		t.Fatal(err)
	}

	s := openDB(t, db)
	for _, tc := range []struct{ before, limit, from int }{{0, 0, 0}, {6, 4, len(want) - 4}, {3, 0, 0}} {
		got, err := s.ListRecords(ctx, "case-old", tc.before, tc.limit)
		wantIDs := recordIDs(want[tc.from:])
		if tc.before == 3 {
			wantIDs = recordIDs(want[:7]) // the notice and turns 1 and 2
		}
		if err != nil || !slices.Equal(recordIDs(got), wantIDs) {
			t.Errorf("ListRecords(before %d, limit %d) = %v, %v\nwant %v", tc.before, tc.limit, recordIDs(got), err, wantIDs)
		}
	}
	if _, err := s.EraseCaseData(ctx, "case-old"); err != nil {
		t.Fatal(err)
	}
	turns := client.Database(db).Collection(mongostore.TurnsCollection)
	if n, err := turns.CountDocuments(ctx, bson.M{"case_id": "case-old"}); err != nil || n != 0 {
		t.Errorf("%d turn documents left after the erasure (%v)", n, err)
	}
	if recs, err := s.ListRecords(ctx, "case-old", 0, 0); err != nil || len(recs) != 0 {
		t.Errorf("records after the erasure = %v, %v", recordIDs(recs), err)
	}
}
