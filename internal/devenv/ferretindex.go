package devenv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// FerretDB v1.24's SQLite backend answers a query by _id alone with
// `WHERE _ferretdb_sjson->'$._id' = ?`, but builds each collection's unique _id index on
// `_ferretdb_sjson->"_id"`, an expression SQLite does not take for the same one: every
// lookup by _id (a case, an event of the log, a budget) read its whole table, and the
// event streams' polls grew slower with every event stored. indexIDs gives each
// collection's table an index on the very expression those lookups use. FerretDB does
// not know of it and does not need to: SQLite keeps it up to date, and drops it with
// its table.

// idIndexEvery is how often a running FerretDB's new tables get their index: a
// collection's table appears with its first write.
const idIndexEvery = 5 * time.Second

// idIndexSuffix names the index; FerretDB names its own "<table>_<index name>".
const idIndexSuffix = "_lexflow_id_lookup"

// indexIDs indexes the _id lookups of every collection of the FerretDB databases kept
// in dir.
func indexIDs(ctx context.Context, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range files {
		errs = append(errs, indexFile(ctx, f))
	}
	return errors.Join(errs...)
}

func indexFile(ctx context.Context, file string) error {
	db, err := sql.Open("sqlite", "file:"+file+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT table_name FROM _ferretdb_collections`)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil // a database without collections yet
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
		tables = append(tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, t+idIndexSuffix, t)
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: index %s: %w", file, t, err)
		}
	}
	return nil
}
