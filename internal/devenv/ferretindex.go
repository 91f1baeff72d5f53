package devenv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the driver FerretDB's SQLite backend uses too
)

// FerretDB v1.24's SQLite backend answers a query by _id alone with
// `WHERE _ferretdb_sjson->'$._id' = ?`, but builds each collection's unique _id index on
// `_ferretdb_sjson->"_id"`, an expression SQLite does not take for the same one: every
// lookup by _id (a case, an event of the log, a budget) read its whole table, and the
// event streams' polls grew slower with every event stored. idIndexer gives each
// collection's table an index on the very expression those lookups use. FerretDB does
// not know of it and does not need to: SQLite keeps it up to date, and drops it with
// its table.

// idIndexEvery is how often a running FerretDB's new tables get their index: a
// collection's table appears with its first write.
const idIndexEvery = 5 * time.Second

// idIndexSuffix names the index; FerretDB names its own "<table>_<index name>".
const idIndexSuffix = "_lexflow_id_lookup"

// idIndexer gives the tables of the FerretDB databases kept in dir their _id lookup
// index, remembering the tables it has indexed.
type idIndexer struct {
	dir     string
	indexed map[string]bool // "<file>\x00<table>"
	lastErr string
}

// run indexes the tables not indexed yet, and says what failed, once per distinct
// failure, and when it is mended.
func (x *idIndexer) run(ctx context.Context, log *slog.Logger) {
	err := x.index(ctx)
	if ctx.Err() != nil {
		return
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	switch {
	case msg != "" && msg != x.lastErr:
		log.Warn("Cannot index FerretDB's _id lookups", "error", err)
	case msg == "" && x.lastErr != "":
		log.Info("FerretDB's _id lookups are indexed again")
	}
	x.lastErr = msg
}

func (x *idIndexer) index(ctx context.Context) error {
	files, err := filepath.Glob(filepath.Join(x.dir, "*.sqlite"))
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range files {
		errs = append(errs, x.indexFile(ctx, f))
	}
	return errors.Join(errs...)
}

func (x *idIndexer) indexFile(ctx context.Context, file string) error {
	// mode=rw: a database FerretDB has just dropped (deleted) is not created again.
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT table_name FROM _ferretdb_collections`)
	if err != nil {
		if _, statErr := os.Stat(file); errors.Is(statErr, fs.ErrNotExist) || strings.Contains(err.Error(), "no such table") {
			return nil // dropped meanwhile, or no collection yet
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		if !x.indexed[file+"\x00"+t] && plainName.MatchString(t) {
			tables = append(tables, t)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS "%s" ON "%s" (_ferretdb_sjson->'$._id')`, t+idIndexSuffix, t)
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: index %s: %w", file, t, err)
		}
		x.indexed[file+"\x00"+t] = true
	}
	return nil
}

// plainName matches the table names idIndexer quotes as they are: FerretDB names a
// collection's table after it (Lexflow's are plain words) and a hash.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
