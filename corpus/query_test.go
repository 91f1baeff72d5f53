package corpus

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestQueryReads(t *testing.T) {
	ctx := context.Background()
	res, err := db.Query(ctx, `SELECT doc_id, summary FROM legislatie WHERE jurisdiction = 'ro' AND LOWER(text) LIKE '%chiria%' LIMIT 5`, "legislatie", DefaultQueryTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 5 || res.Columns[0] != "doc_id" || res.Truncated {
		t.Fatalf("result = %+v", res)
	}
	res, err = db.Query(ctx, `-- the full text of one article
		WITH a AS (SELECT doc_id, text FROM legislatie) SELECT text FROM a WHERE doc_id = 'it/rd-262-1942/art-2043'`, "legislatie", DefaultQueryTimeout)
	if err != nil || len(res.Rows) != 1 || !strings.HasPrefix(res.Rows[0]["text"].(string), "Qualunque fatto doloso") {
		t.Fatalf("full text: %+v, %v", res, err)
	}
	res, err = db.Query(ctx, `SELECT doc_id FROM jurisprudenta;`, "jurisprudenta", DefaultQueryTimeout)
	if err != nil || len(res.Rows) != MaxRows || !res.Truncated {
		t.Fatalf("a large result: %d rows, truncated %v, %v", len(res.Rows), res.Truncated, err)
	}
	res, err = db.Query(ctx, `SELECT court, count(*) AS n FROM jurisprudenta WHERE jurisdiction = 'ro' GROUP BY court ORDER BY n DESC`, "jurisprudenta", DefaultQueryTimeout)
	if err != nil || res.Rows[0]["court"] != "Curtea de Apel București" {
		t.Fatalf("aggregate: %+v, %v", res, err)
	}
}

// TestQueryBoundsResultBytes: many rows of full texts together are cut at
// MaxResultBytes.
func TestQueryBoundsResultBytes(t *testing.T) {
	res, err := db.Query(context.Background(), `SELECT text || text || text || text || text || text || text || text AS t FROM legislatie ORDER BY length(text) DESC`, "legislatie", DefaultQueryTimeout)
	size := 0
	for _, r := range res.Rows {
		size += len(r["t"].(string))
	}
	if err != nil || size > MaxResultBytes || !res.Truncated {
		t.Errorf("rows of texts: %d rows of %d bytes, truncated %v, %v", len(res.Rows), size, res.Truncated, err)
	}
}

// TestAttackQueryBuildsHugeValue (issue 36, finding 10): a query that builds a value
// past MaxValueBytes, with group_concat over a whole table (16 MB), with replace() or
// over a self-join, is refused with a clear error, its value never held past the
// limit (SQLite's own is 1 GB). An aggregate reports the error once it has read its
// rows: a self-join of a whole table runs on, holding no more, until its timeout.
func TestAttackQueryBuildsHugeValue(t *testing.T) {
	for _, q := range []string{
		`SELECT group_concat(text) || group_concat(text) AS everything FROM legislatie`,
		`SELECT length(replace(replace(replace(text, ' ', text), ' ', text), ' ', text)) FROM legislatie WHERE length(text) > 2000 LIMIT 1`,
		`SELECT length(group_concat(a.text || b.text)) FROM (SELECT text FROM legislatie LIMIT 300) a, (SELECT text FROM legislatie LIMIT 300) b`,
	} {
		start := time.Now()
		_, err := db.Query(context.Background(), q, "legislatie", DefaultQueryTimeout)
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "a value grew past") {
			t.Errorf("%s: %v", q, err)
		}
		t.Logf("%s: refused after %v", q, time.Since(start))
	}
}

// TestHostileQueries runs every statement of testdata/hostile.sql: each is refused or
// fails, and the database file is byte for byte what it was.
func TestHostileQueries(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "corpus.db")
	raw, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	before := fileSum(t, path)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err = os.ReadFile("testdata/hostile.sql")
	if err != nil {
		t.Fatal(err)
	}
	stmts := strings.Split(string(raw), "\n-- @@\n")
	if len(stmts) < 100 {
		t.Fatalf("the hostile corpus has %d statements, want at least 100", len(stmts))
	}
	refused := 0
	for _, stmt := range stmts {
		res, err := s.Query(ctx, stmt, "legislatie", time.Second)
		if err == nil {
			t.Errorf("accepted %q: %d rows", stmt, len(res.Rows))
			continue
		}
		if errors.Is(err, ErrRefused) {
			refused++
		}
	}
	for _, table := range []string{"sqlite_master", "meta", "legislatie_fts", ""} {
		if _, err := s.Query(ctx, "SELECT 1", table, time.Second); !errors.Is(err, ErrRefused) {
			t.Errorf("table %q accepted: %v", table, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if after := fileSum(t, path); after != before {
		t.Error("the database file changed")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files next to the database: %v", entries)
	}
	t.Logf("%d hostile statements: %d refused, %d failed", len(stmts), refused, len(stmts)-refused)
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(raw)
}

func TestScanStatements(t *testing.T) {
	for q, want := range map[string]int{
		"SELECT 1":                   1,
		"SELECT 1;":                  1,
		"SELECT 1; ":                 1,
		"SELECT ';' FROM x":          1,
		"SELECT 1 -- ; DROP\n":       1,
		"SELECT 1 /* ; */":           1,
		"SELECT 1; SELECT 2":         2,
		`SELECT "a;b", [c;d], 'e;f'`: 1,
	} {
		if n, _ := scanStatements(q); n != want {
			t.Errorf("scanStatements(%q) = %d, want %d", q, n, want)
		}
	}
}
