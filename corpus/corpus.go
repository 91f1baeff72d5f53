// Package corpus stores and searches the legal texts that the research tools read:
// Romanian, Italian and EU legislation by article, and Italian and Romanian case law,
// shipped in the repository (data/legal.tar.gz, with the provenance notes beside it)
// and loaded into an embedded SQLite database with FTS5 full-text indexes that match
// with or without diacritics.
package corpus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver
)

// Article is one article of an act: the row of table legislatie.
type Article struct {
	DocID        string // e.g. "it/rd-262-1942/art-2043"
	Jurisdiction string // ro, it or eu
	Language     string // ro, it or en
	ActType      string // e.g. "codice civile", "regolament", "lege"
	ActNumber    string
	ActYear      int
	ActDate      string // YYYY-MM-DD when known
	ActTitle     string
	Article      string // "2043", "21-bis", "1^1"
	Title        string // the article's heading
	Text         string
	URL          string
	URN          string // Normattiva URN, for Italian acts
	CELEX        string // for EU acts
	InForce      bool
	Source       string // the shipped source it came from, e.g. SourceNormattiva
	// Headings are the headings of the parts of its act the article stands in (book,
	// title, chapter, section), outermost first, where the source gives them: the
	// analysed index ranks them, the legislatie table does not keep them.
	Headings []string
}

// Decision is one court decision: the row of table jurisprudenta.
type Decision struct {
	DocID        string
	Jurisdiction string // ro or it
	Language     string
	Kind         string // sentenza, ordinanza, questione SU, decizie, sentință, RIL, HP, ...
	Court        string
	Section      string
	Number       string
	Year         int
	Date         string
	ECLI         string
	Materia      string // subject matter
	Massima      string // the official maxim, or the summary a court published
	Summary      string
	FullText     string
	URL          string
	Source       string // the shipped source it came from, e.g. SourceCassazione
}

// schema creates the tables and their full-text indexes. The indexes fold case and
// diacritics (remove_diacritics 2), so "garantia" finds "garanția" and "garanţia".
const schema = `
CREATE TABLE legislatie (
	doc_id TEXT PRIMARY KEY,
	jurisdiction TEXT NOT NULL,
	language TEXT NOT NULL,
	act_type TEXT NOT NULL,
	act_number TEXT NOT NULL,
	act_year INTEGER NOT NULL,
	act_date TEXT NOT NULL,
	act_title TEXT NOT NULL,
	article TEXT NOT NULL,
	title TEXT NOT NULL,
	summary TEXT NOT NULL,
	text TEXT NOT NULL,
	url TEXT NOT NULL,
	urn TEXT NOT NULL,
	celex TEXT NOT NULL,
	in_force INTEGER NOT NULL,
	source TEXT NOT NULL
);
CREATE INDEX legislatie_article ON legislatie (jurisdiction, act_type, article);
CREATE VIRTUAL TABLE legislatie_fts USING fts5(
	act_title, title, text, content='legislatie', content_rowid='rowid',
	tokenize='unicode61 remove_diacritics 2');
CREATE TABLE jurisprudenta (
	doc_id TEXT PRIMARY KEY,
	jurisdiction TEXT NOT NULL,
	language TEXT NOT NULL,
	kind TEXT NOT NULL,
	court TEXT NOT NULL,
	section TEXT NOT NULL,
	number TEXT NOT NULL,
	year INTEGER NOT NULL,
	date TEXT NOT NULL,
	ecli TEXT NOT NULL,
	materia TEXT NOT NULL,
	massima TEXT NOT NULL,
	summary TEXT NOT NULL,
	full_text TEXT NOT NULL,
	url TEXT NOT NULL,
	source TEXT NOT NULL
);
CREATE INDEX jurisprudenta_number ON jurisprudenta (jurisdiction, number, year);
CREATE VIRTUAL TABLE jurisprudenta_fts USING fts5(
	materia, massima, summary, full_text, content='jurisprudenta', content_rowid='rowid',
	tokenize='unicode61 remove_diacritics 2');
CREATE TABLE sources (
	source TEXT PRIMARY KEY,
	articles INTEGER NOT NULL,
	decisions INTEGER NOT NULL,
	complete INTEGER NOT NULL,
	suffixed INTEGER NOT NULL,
	as_of TEXT NOT NULL
);
CREATE TABLE acts (
	act_id TEXT PRIMARY KEY,
	jurisdiction TEXT NOT NULL,
	language TEXT NOT NULL,
	act_type TEXT NOT NULL,
	act_number TEXT NOT NULL,
	act_year INTEGER NOT NULL,
	act_title TEXT NOT NULL,
	url TEXT NOT NULL,
	source TEXT NOT NULL,
	last_article INTEGER NOT NULL,
	as_of TEXT NOT NULL
);
CREATE TABLE meta (
	key TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
`

// summaryChars is the length of the summary column, read before full texts (seed 003).
const summaryChars = 300

// Counts says how many rows each source gave.
type Counts map[string]SourceCount

// SourceCount is one source's rows.
type SourceCount struct {
	Articles  int `json:"articles"`
	Decisions int `json:"decisions"`
}

// write creates a new database at path holding the given rows, replacing any file
// there only once it is complete.
func write(ctx context.Context, path, archiveSum string, arts []Article, decs []Decision, counts Counts) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".building"
	_ = os.Remove(tmp)
	db, err := sql.Open("sqlite", "file:"+tmp)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := fill(ctx, db, archiveSum, arts, decs, counts); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func fill(ctx context.Context, db *sql.DB, archiveSum string, arts []Article, decs []Decision, counts Counts) error {
	if _, err := db.ExecContext(ctx, schema+analysedSchema()+learnedSchema); err != nil {
		return fmt.Errorf("create corpus schema: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO legislatie VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	for _, a := range arts {
		if _, err := ins.ExecContext(ctx, a.DocID, a.Jurisdiction, a.Language, a.ActType, a.ActNumber, a.ActYear, a.ActDate,
			a.ActTitle, a.Article, a.Title, clip(a.Text, summaryChars), a.Text, a.URL, a.URN, a.CELEX, a.InForce, a.Source); err != nil {
			return fmt.Errorf("insert %s: %w", a.DocID, err)
		}
	}
	ins, err = tx.PrepareContext(ctx, `INSERT INTO jurisprudenta VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	for _, d := range decs {
		if _, err := ins.ExecContext(ctx, d.DocID, d.Jurisdiction, d.Language, d.Kind, d.Court, d.Section, d.Number, d.Year, d.Date,
			d.ECLI, d.Materia, d.Massima, d.Summary, d.FullText, d.URL, d.Source); err != nil {
			return fmt.Errorf("insert %s: %w", d.DocID, err)
		}
	}
	for source, c := range counts {
		info := sourceInfos[source]
		if _, err := tx.ExecContext(ctx, `INSERT INTO sources VALUES (?,?,?,?,?,?)`, source, c.Articles, c.Decisions,
			info.complete, info.suffixed, info.asOf); err != nil {
			return err
		}
	}
	for _, act := range actsOf(arts) {
		asOf, ok := actAsOf[act.id]
		if !ok {
			asOf = sourceInfos[act.Source].asOf
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO acts VALUES (?,?,?,?,?,?,?,?,?,?,?)`, act.id, act.Jurisdiction, act.Language,
			act.ActType, act.ActNumber, act.ActYear, act.ActTitle, act.URL, act.Source, act.lastArticle, asOf); err != nil {
			return fmt.Errorf("insert act %s: %w", act.id, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta VALUES ('archive_sha256', ?)`, archiveSum); err != nil {
		return err
	}
	as := analyzers{}
	if err := fillAnalysed(ctx, tx, as, arts, decs); err != nil {
		return err
	}
	if err := fillLearned(ctx, tx, as, arts); err != nil {
		return err
	}
	for _, stmt := range []string{
		`INSERT INTO legislatie_fts (legislatie_fts) VALUES ('rebuild')`,
		`INSERT INTO jurisprudenta_fts (jurisprudenta_fts) VALUES ('rebuild')`,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("build full-text index: %w", err)
		}
	}
	return tx.Commit()
}

// Store is an open corpus database, read-only.
type Store struct {
	db *sql.DB
	// queries serves Query, with an authorizer installed per query.
	queries *sql.DB
	// learnedIx is the learned model, read on the first search that asks for it
	// (learned), or learnedErr why it cannot be; learnedMu guards both.
	learnedMu  sync.Mutex
	learnedIx  *learnedIndex
	learnedErr error
}

// ErrNotBuilt means the corpus database has not been built yet.
var ErrNotBuilt = errors.New("corpus not built; run `lexflow corpus load`")

// Open opens the corpus database at path read-only.
func Open(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w (%s)", ErrNotBuilt, path)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return nil, err
	}
	queries, err := openQueries(path)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, queries: queries}, nil
}

// archiveSum returns the checksum of the archive the database was built from.
func (s *Store) archiveSum(ctx context.Context) string {
	var sum string
	_ = s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'archive_sha256'`).Scan(&sum)
	return sum
}

// Ping reads the database's metadata, which fails when the file is gone or unreadable.
func (s *Store) Ping(ctx context.Context) error {
	var n int
	return s.db.QueryRowContext(ctx, `SELECT count(*) FROM meta`).Scan(&n)
}

// Close closes the database.
func (s *Store) Close() error { return errors.Join(s.queries.Close(), s.db.Close()) }

// Counts returns the rows of each source.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT source, articles, decisions FROM sources ORDER BY source`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := Counts{}
	for rows.Next() {
		var name string
		var c SourceCount
		if err := rows.Scan(&name, &c.Articles, &c.Decisions); err != nil {
			return nil, err
		}
		out[name] = c
	}
	return out, rows.Err()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
