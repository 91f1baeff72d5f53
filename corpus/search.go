package corpus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// ActRef names an act as a caller writes it: a type ("codice civile", "Codul civil",
// "d.lgs", "legea"), perhaps a number and a year or date.
type ActRef struct {
	Type   string
	Number string
	Date   string // YYYY or YYYY-MM-DD
}

// actAliases maps the ways people name an act to the corpus's (jurisdiction, act_type,
// act_number). An empty number leaves the number to the caller.
var actAliases = []struct {
	names                         []string
	jurisdiction, actType, number string
}{
	{[]string{"codice civile", "cod civ", "c c", "cc"}, "it", "codice civile", "262"},
	{[]string{"codice penale", "cod pen", "c p", "cp"}, "it", "codice penale", "1398"},
	{[]string{"codice privacy", "codice in materia di protezione dei dati personali"}, "it", "decreto legislativo", "196"},
	{[]string{"codice del consumo"}, "it", "decreto legislativo", "206"},
	{[]string{"d lgs", "dlgs", "decreto legislativo"}, "it", "decreto legislativo", ""},
	{[]string{"codul civil", "cod civil", "noul cod civil"}, "ro", "lege", "287"},
	{[]string{"codul de procedura civila", "cod procedura civila", "cpc"}, "ro", "lege", "134"},
	{[]string{"codul penal", "cod penal"}, "ro", "lege", "286"},
	{[]string{"codul de procedura penala", "cod procedura penala", "cpp"}, "ro", "lege", "135"},
	{[]string{"codul fiscal", "cod fiscal"}, "ro", "lege", "227"},
	{[]string{"codul de procedura fiscala", "cod procedura fiscala"}, "ro", "lege", "207"},
	{[]string{"codul muncii", "codul muncii al romaniei"}, "ro", "lege", "53"},
	{[]string{"codul administrativ", "cod administrativ"}, "ro", "ordonanță de urgență", "57"},
	{[]string{"constitutia", "constitutia romaniei", "constitutie"}, "ro", "constituție", ""},
	{[]string{"legea", "lege", "legea nr"}, "ro", "lege", ""},
	{[]string{"oug", "ordonanta de urgenta"}, "ro", "ordonanță de urgență", ""},
}

// normalizeName folds an act name for alias matching: lower case, no diacritics, no
// punctuation, single spaces.
func normalizeName(s string) string {
	f := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return ' '
	}, Fold(s))
	return strings.Join(strings.Fields(f), " ")
}

// resolve finds the act a reference names.
func (ref ActRef) resolve() (jurisdiction, actType, number string, ok bool) {
	name := normalizeName(ref.Type)
	for _, a := range actAliases {
		if !slices.Contains(a.names, name) {
			continue
		}
		number = a.number
		if ref.Number != "" {
			number = strings.TrimSpace(ref.Number)
		}
		return a.jurisdiction, a.actType, number, true
	}
	return "", "", "", false
}

// ErrNoAct means a reference names no act of the corpus.
var ErrNoAct = errors.New("no such act in the corpus")

// ArticleOf returns an article of a national act (Italian or Romanian), or ErrNoAct.
// A year or date in the reference must match the act's.
func (s *Store) ArticleOf(ctx context.Context, ref ActRef, article string) (Article, error) {
	jur, actType, number, ok := ref.resolve()
	if !ok {
		return Article{}, fmt.Errorf("%w: %q", ErrNoAct, ref.Type)
	}
	query := `SELECT ` + articleColumns + ` FROM legislatie WHERE jurisdiction = ? AND act_type = ? AND article = ?`
	args := []any{jur, actType, normalizeArticle(article)}
	if number != "" {
		query += ` AND act_number = ?`
		args = append(args, number)
	}
	if year := yearOf(ref.Date); year != 0 {
		query += ` AND act_year = ?`
		args = append(args, year)
	}
	return s.oneArticle(ctx, query+` ORDER BY doc_id LIMIT 1`, args...)
}

// EUArticle returns an article of an EU act by type, year and number, in a language.
func (s *Store) EUArticle(ctx context.Context, year, number int, article, lang string) (Article, error) {
	return s.oneArticle(ctx, `SELECT `+articleColumns+` FROM legislatie
		WHERE jurisdiction = 'eu' AND act_year = ? AND act_number = ? AND article = ? AND language = ?`,
		year, strconv.Itoa(number), normalizeArticle(article), lang)
}

// ArticleByID returns the article of a doc_id ("it/rd-262-1942/art-2043"), or
// ErrNoArticle.
func (s *Store) ArticleByID(ctx context.Context, docID string) (Article, error) {
	return s.oneArticle(ctx, `SELECT `+articleColumns+` FROM legislatie WHERE doc_id = ?`, docID)
}

const articleColumns = `doc_id, jurisdiction, language, act_type, act_number, act_year, act_date, act_title,
	article, title, text, url, urn, celex, in_force`

// ErrNoArticle means the act has no such article in the corpus.
var ErrNoArticle = errors.New("no such article in the corpus")

func (s *Store) oneArticle(ctx context.Context, query string, args ...any) (Article, error) {
	var a Article
	err := s.db.QueryRowContext(ctx, query, args...).Scan(&a.DocID, &a.Jurisdiction, &a.Language, &a.ActType,
		&a.ActNumber, &a.ActYear, &a.ActDate, &a.ActTitle, &a.Article, &a.Title, &a.Text, &a.URL, &a.URN, &a.CELEX, &a.InForce)
	if errors.Is(err, sql.ErrNoRows) {
		return Article{}, ErrNoArticle
	}
	return a, err
}

// normalizeArticle turns "Art. 2043", "articolul 1357", " 21 bis" into the corpus's
// article numbers ("2043", "1357", "21-bis").
func normalizeArticle(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, prefix := range []string{"articolul", "articolo", "article", "art."} {
		s = strings.TrimSpace(strings.TrimPrefix(s, prefix))
	}
	s = strings.TrimLeft(s, "0")
	return strings.Join(strings.Fields(s), "-")
}

func yearOf(date string) int {
	if len(date) < 4 {
		return 0
	}
	y, _ := strconv.Atoi(date[:4])
	return y
}

// Hit is one decision found by SearchDecisions, with its fused score.
type Hit struct {
	Decision
	Score float64
}

// rrfK is the constant of reciprocal rank fusion.
const rrfK = 60

// SearchDecisionsUnanalysed is SearchDecisions without the language analysis: the
// words of the query as written (diacritics folded) against the unanalysed index, two
// rankings (massime and summaries, full texts) fused by reciprocal rank. It is the
// baseline the evaluation measures the analysis against.
func (s *Store) SearchDecisionsUnanalysed(ctx context.Context, query string, scope DecisionScope, limit int) ([]Hit, error) {
	filter, args, err := scope.filter()
	if err != nil {
		return nil, err
	}
	scores := map[int64]float64{}
	if err := s.rankUnanalysed(ctx, scores, query, 1, filter, args); err != nil {
		return nil, err
	}
	return s.decisionHits(ctx, scores, limit)
}

// decisionHits reads the best limit decisions of scores, best first.
func (s *Store) decisionHits(ctx context.Context, scores map[int64]float64, limit int) ([]Hit, error) {
	var hits []Hit
	for _, id := range best(scores, limit) {
		var d Decision
		err := s.db.QueryRowContext(ctx, `SELECT doc_id, jurisdiction, language, kind, court, section, number, year, date, ecli,
			materia, massima, summary, full_text, url FROM jurisprudenta WHERE rowid = ?`, id).Scan(
			&d.DocID, &d.Jurisdiction, &d.Language, &d.Kind, &d.Court, &d.Section, &d.Number, &d.Year, &d.Date, &d.ECLI,
			&d.Materia, &d.Massima, &d.Summary, &d.FullText, &d.URL)
		if err != nil {
			return nil, err
		}
		hits = append(hits, Hit{Decision: d, Score: scores[id]})
	}
	return hits, nil
}

// ftsQuery turns free text into an FTS5 query: its words of three or more letters,
// each quoted, joined by OR, so that any of them matches and none is read as syntax.
func ftsQuery(text string) string {
	var terms []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 3 && !slices.Contains(terms, `"`+w+`"`) {
			terms = append(terms, `"`+w+`"`)
		}
	}
	return strings.Join(terms, " OR ")
}

// MassimeFor returns up to limit Italian decisions whose massima or summary cites an
// article of a code ("art. 2043", "art. 640 c.p.").
func (s *Store) MassimeFor(ctx context.Context, article string, limit int) ([]Decision, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT j.doc_id, j.court, j.section, j.number, j.year, j.massima FROM jurisprudenta_fts f
		JOIN jurisprudenta j ON j.rowid = f.rowid
		WHERE jurisprudenta_fts MATCH ? AND j.jurisdiction = 'it' ORDER BY bm25(jurisprudenta_fts) LIMIT ?`,
		`{massima summary} : "art `+normalizeArticle(article)+`"`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		var d Decision
		if err := rows.Scan(&d.DocID, &d.Court, &d.Section, &d.Number, &d.Year, &d.Massima); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// best returns the limit ids of scores with the highest scores, best first (ties by
// id).
func best(scores map[int64]float64, limit int) []int64 {
	ids := make([]int64, 0, len(scores))
	for id := range scores {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int64) int {
		if scores[a] != scores[b] {
			if scores[a] > scores[b] {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	return ids[:min(len(ids), limit)]
}
