package devenv

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// ferretIDQuery is the query FerretDB v1.24's SQLite backend runs for a find by _id
// alone (internal/backends/sqlite/collection.go, Query), for table %q.
const ferretIDQuery = `SELECT _ferretdb_sjson FROM %q WHERE _ferretdb_sjson->'$._id' = ?`

// TestFerretDBLooksUpIDsByIndex: a collection written to the embedded FerretDB soon
// has the index, and SQLite plans FerretDB's query by _id as a search of it, where
// FerretDB's own _id index leaves it a scan of the table.
func TestFerretDBLooksUpIDsByIndex(t *testing.T) {
	dir := t.TempDir()
	f, err := StartFerretDB(t.Context(), "127.0.0.1:0", dir, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	client, err := mongo.Connect(options.Client().ApplyURI(f.URI))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	if _, err := client.Database("lexflow").Collection("events").InsertOne(t.Context(), bson.M{"_id": "c1/1", "type": "x"}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "lexflow.sqlite")+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxIdleConns(0) // a connection per query, which reads the schema as it is now
	var table string
	if err := db.QueryRow(`SELECT table_name FROM _ferretdb_collections WHERE name = 'events'`).Scan(&table); err != nil {
		t.Fatal(err)
	}
	plan := func() string {
		var id, parent, unused int
		var detail string
		if err := db.QueryRow("EXPLAIN QUERY PLAN "+strings.Replace(ferretIDQuery, "%q", `"`+table+`"`, 1), `"c1/1"`).
			Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		return detail
	}
	if p := plan(); !strings.HasPrefix(p, "SCAN") && !strings.Contains(p, idIndexSuffix) {
		t.Fatalf("before the index FerretDB's query is planned as %q, not a scan: the workaround may be moot", p)
	}
	for deadline := time.Now().Add(3 * idIndexEvery); !strings.Contains(plan(), "USING INDEX "+table+idIndexSuffix); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a lookup by _id is still planned as %q", plan())
		}
	}
}
