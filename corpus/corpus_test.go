package corpus

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// db is the corpus the package's tests read, at dbPath: the one `make test` builds
// with a plain binary and names in LEXFLOW_TEST_CORPUS (see package internal/testcorpus,
// which this package cannot import), or else one Ensure builds here. A build takes
// minutes under the race detector, against 20 s without; TestBench builds a synthetic
// corpus under it, and package learned's tests train on goroutines under it.
var (
	db     *Store
	dbPath string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lexflow-corpus-")
	if err != nil {
		panic(err)
	}
	dbPath = os.Getenv("LEXFLOW_TEST_CORPUS")
	if dbPath == "" {
		dbPath = filepath.Join(dir, "corpus.db")
	}
	if _, _, err := Ensure(context.Background(), dbPath); err != nil {
		panic(err)
	}
	if db, err = Open(dbPath); err != nil {
		panic(err)
	}
	code := m.Run()
	db.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestCounts pins the rows each source gives; the data's own survey found these.
func TestCounts(t *testing.T) {
	got, err := db.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := Counts{
		SourceGDPR:         {Articles: 297},  // 99 articles in EN, IT and RO
		SourceNormattiva:   {Articles: 4576}, // 5 codes, repealed articles included
		SourceROCodes:      {Articles: 6778}, // 6,777 objects, +5 merged articles split, -4 repeated numbers
		SourceCostituzione: {Articles: 157},  // 139 articles and 18 transitional and final provisions
		SourceCassazione:   {Decisions: 299}, // 244 decisions and 55 questions to the Sezioni Unite
		SourceRejust:       {Decisions: 241}, // 237 courts of appeal and 4 ÎCCJ
	}
	for src, w := range want {
		if got[src] != w {
			t.Errorf("%s: %+v, want %+v", src, got[src], w)
		}
	}
}

func row(t *testing.T, query string, args ...any) []string {
	t.Helper()
	rows, err := db.db.Query(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if !rows.Next() {
		t.Fatalf("no row for %s %v", query, args)
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(cols))
	for i, v := range vals {
		out[i] = v.String
	}
	return out
}

func TestArticles(t *testing.T) {
	for _, tc := range []struct {
		docID, title, textPrefix string
	}{
		{"it/rd-262-1942/art-2043", "Risarcimento per fatto illecito", "Qualunque fatto doloso o colposo, che cagiona ad altri un danno ingiusto"},
		// The repeated title and the "(" markers are gone.
		{"it/rd-262-1942/art-2", "Maggiore età. Capacità di agire", "La maggiore età è fissata"},
		// Footnote numbers are gone.
		{"it/rd-1398-1930/art-575", "Omicidio", "Chiunque cagiona la morte di un uomo è punito con la reclusione non inferiore ad anni ventuno."},
		{"ro/legea-287-2009/art-1357", "Condițiile răspunderii", "(1) Cel care cauzează altuia un prejudiciu printr-o faptă ilicită, săvârșită cu intenție"},
		// Stored as number 1 named "074" in the source.
		{"ro/legea-287-2009/art-1074", "Noțiunea", "(1) Dezmoștenirea este dispoziția testamentară"},
		// Merged into art. 1250's text in the source.
		{"ro/legea-287-2009/art-1251", "Cauzele de nulitate relativă", "Contractul este lovit de nulitate relativă"},
		{"eu/32016R0679/it/art-17", "Diritto alla cancellazione («diritto all'oblio»)", "1. L'interessato ha il diritto di ottenere dal titolare del trattamento la cancellazione"},
		{"eu/32016R0679/ro/art-17", "Dreptul la ștergerea datelor („dreptul de a fi uitat”)", "(1) Persoana vizată are dreptul"},
		{"eu/32016R0679/en/art-17", "Right to erasure (‘right to be forgotten’)", "1. The data subject shall have the right"},
	} {
		r := row(t, `SELECT title, text FROM legislatie WHERE doc_id = ?`, tc.docID)
		if r[0] != tc.title || !strings.HasPrefix(r[1], tc.textPrefix) {
			t.Errorf("%s: title %q, text %.120q", tc.docID, r[0], r[1])
		}
		if a, err := db.ArticleByID(t.Context(), tc.docID); err != nil || a.DocID != tc.docID || a.Title != tc.title {
			t.Errorf("ArticleByID(%s) = %+v, %v", tc.docID, a, err)
		}
	}
	if _, err := db.ArticleByID(t.Context(), "it/rd-262-1942/art-99999"); !errors.Is(err, ErrNoArticle) {
		t.Errorf("ArticleByID of no article = %v, want ErrNoArticle", err)
	}
	// The Romanian texts use comma-below ș and ț only, and no HTML is left.
	if r := row(t, `SELECT count(*) FROM legislatie WHERE text GLOB '*[şţŞŢ]*' OR title GLOB '*[şţŞŢ]*' OR title LIKE '%<%'`); r[0] != "0" {
		t.Errorf("%s articles keep cedilla letters or HTML", r[0])
	}
	// Every way Normattiva says an article is no longer law marks it so; a repealed
	// paragraph leaves the rest of its article in force.
	for id, inForce := range map[string]string{
		"it/rd-262-1942/art-3":        "0", // ARTICOLO ABROGATO
		"it/rd-262-1942/art-2384-bis": "0", // ARTICOLO NON PIù PREVISTO
		"it/rd-262-1942/art-2623":     "0", // IL D.L. … HA CONFERMATO L'ABROGAZIONE
		"it/rd-1398-1930/art-21":      "0", // ARTICOLO DA RITENERSI SOPPRESSO
		"it/rd-1398-1930/art-531":     "0", // ARTICOLO SOSTITUITO
		"it/rd-262-1942/art-104":      "1", // COMMA ABROGATO …, then the article
		"it/rd-1398-1930/art-624":     "1",
	} {
		if r := row(t, `SELECT in_force FROM legislatie WHERE doc_id = ?`, id); r[0] != inForce {
			t.Errorf("%s: in_force %s, want %s", id, r[0], inForce)
		}
	}
	// Editorial "..." marks are gone from the Romanian codes; ellipses in the text stay.
	if r := row(t, `SELECT count(*) FROM legislatie WHERE jurisdiction = 'ro' AND (text LIKE '%... %' OR text LIKE '%...' OR text LIKE '%...'||char(10)||'%')`); r[0] != "0" {
		t.Errorf("%s Romanian articles keep editorial marks", r[0])
	}
}

func TestDecisions(t *testing.T) {
	r := row(t, `SELECT kind, section, number, date, materia, massima, url FROM jurisprudenta WHERE doc_id = 'it/cass/10387-2025'`)
	if r[0] != "sentenza" || r[1] != "Sesta" || r[2] != "10387" || r[3] != "2025-03-14" || r[4] != "Misure di prevenzione" ||
		!strings.HasPrefix(r[5], "Patrimoniali – Giudizio di verifica dei crediti") || !strings.Contains(r[6], "SZP41636") {
		t.Errorf("Cass. 10387/2025 = %q", r)
	}
	r = row(t, `SELECT kind, court, number, date, url FROM jurisprudenta WHERE doc_id = 'ro/iccj/ril-11-2023'`)
	if r[0] != "RIL" || r[1] != "Înalta Curte de Casație și Justiție" || r[2] != "11/2023" || r[3] != "2023-06-19" || !strings.HasPrefix(r[4], "https://legislatie.just.ro/") {
		t.Errorf("ÎCCJ RIL 11/2023 = %q", r)
	}
	r = row(t, `SELECT kind, court, number, date FROM jurisprudenta WHERE doc_id = 'ro/ca/Hotarare-01.11.2021-724'`)
	if r[0] != "decizie" || r[1] != "Curtea de Apel Bacău" || r[2] != "724/2021" || r[3] != "2021-11-01" {
		t.Errorf("CA Bacău 724/2021 = %q", r)
	}
	if r := row(t, `SELECT count(*) FROM jurisprudenta WHERE full_text GLOB '*[şţŞŢ]*' OR full_text LIKE '%<_c3%'`); r[0] != "0" {
		t.Errorf("%s decisions keep cedilla letters or mangled tags", r[0])
	}
	if r := row(t, `SELECT count(DISTINCT court) FROM jurisprudenta WHERE doc_id LIKE 'ro/ca/%' AND court != ''`); r[0] != "13" {
		t.Errorf("%s courts of appeal, want 13", r[0])
	}
	// A decision is written in its jurisdiction's language: a scoped search ranks only
	// that language's index and English's (DecisionScope.holds).
	if r := row(t, `SELECT count(*) FROM jurisprudenta WHERE language != jurisdiction`); r[0] != "0" {
		t.Errorf("%s decisions in another language than their jurisdiction's", r[0])
	}
}

// TestFullTextIgnoresDiacritics searches with and without diacritics, in both the
// cedilla and the comma-below spelling.
func TestFullTextIgnoresDiacritics(t *testing.T) {
	count := func(table, q string) string {
		return row(t, `SELECT count(*) FROM `+table+`_fts WHERE `+table+`_fts MATCH ?`, q)[0]
	}
	for _, group := range [][]string{
		{"răspunderii", "raspunderii", "răspunderii"},
		{"garanția", "garantia", "garanţia"},
		{"responsabilità", "responsabilita", "RESPONSABILITÀ"},
	} {
		first := count("legislatie", group[0])
		if first == "0" {
			t.Errorf("%q finds nothing", group[0])
		}
		for _, q := range group[1:] {
			if got := count("legislatie", q); got != first {
				t.Errorf("%q finds %s articles, %q finds %s", q, got, group[0], first)
			}
		}
	}
	if count("jurisprudenta", "achizițiile") == "0" {
		t.Error("no decision mentions achizițiile")
	}
}

func TestOpenNeedsABuiltCorpus(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "none.db")); err == nil {
		t.Fatal("opened a corpus that was never built")
	}
}

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"Condiţiile  <b>răspunderii</b>&nbsp;civile": "Condițiile răspunderii civile",
		"a\n\n\n\nb":       "a\n\nb",
		"ŞI ŢARA":          "ȘI ȚARA",
		" x \u00a0 y ":     "x y",
		"n. 51 &deg; anni": "n. 51 ° anni",
	} {
		if got := cleanText(in); got != want {
			t.Errorf("cleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEnsureBuildsOnce checks that Ensure leaves a current corpus alone.
func TestEnsureBuildsOnce(t *testing.T) {
	before, _ := os.Stat(dbPath)
	counts, built, err := Ensure(context.Background(), dbPath)
	if err != nil || built || counts[SourceRejust].Decisions != 241 || counts[SourceGDPR].Articles != 297 {
		t.Fatalf("second Ensure: %v built=%v %v", counts, built, err)
	}
	after, _ := os.Stat(dbPath)
	if !after.ModTime().Equal(before.ModTime()) {
		t.Error("the second Ensure rebuilt the corpus")
	}
}

// TestCurrent checks when Ensure rebuilds: a missing database, or one built from
// another archive.
func TestCurrent(t *testing.T) {
	ctx := context.Background()
	if _, ok := current(ctx, dbPath); !ok {
		t.Error("the corpus built from the shipped archive is not current")
	}
	if _, ok := current(ctx, filepath.Join(t.TempDir(), "missing.db")); ok {
		t.Error("a missing corpus is current")
	}
	stale := filepath.Join(t.TempDir(), "stale.db")
	raw, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	rw, err := sql.Open("sqlite", "file:"+stale)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(`UPDATE meta SET value = 'an older archive' WHERE key = 'archive_sha256'`); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	if _, ok := current(ctx, stale); ok {
		t.Error("a corpus built from another archive is current")
	}
}

func TestBench(t *testing.T) {
	ctx := context.Background()
	vocab, err := db.Vocabulary(ctx)
	if err != nil || len(vocab) < 10000 || vocab[0] == "" {
		t.Fatalf("vocabulary of %d words, %v", len(vocab), err)
	}
	path := filepath.Join(t.TempDir(), "synthetic.db")
	if err := Synthesize(ctx, path, vocab, 3000, 300, 1); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if c, _ := s.Counts(ctx); c["synthetic"].Articles != 3000 || c["synthetic"].Decisions != 300 {
		t.Fatalf("counts %v", c)
	}
	res, err := s.Bench(ctx, vocab, 20, 7)
	if err != nil || len(res) != 3 || res[0].Tool != "kb_search" || res[2].Tool != "legislation_search" || res[2].Lookup.P50 <= 0 || res[1].Lookup.P50 <= 0 || res[1].Naive.P99 < res[1].Naive.P50 {
		t.Fatalf("bench: %+v, %v", res, err)
	}
}
