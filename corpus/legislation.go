package corpus

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Jurisdictions legislation_search ranks within; JurisdictionAll is every one.
const (
	JurisdictionAll = "all"
)

// jurisdictionLanguages are the languages whose indexes hold a jurisdiction's law:
// national law in its language, EU law in the three.
var jurisdictionLanguages = map[string][]string{
	"ro":            {"ro"},
	"it":            {"it"},
	"eu":            {"en", "it", "ro"},
	JurisdictionAll: {"ro", "it", "en"},
}

// ErrJurisdiction means a jurisdiction is none of ro, it, eu or all.
var ErrJurisdiction = errors.New("unknown jurisdiction: want ro, it, eu or all")

// MaxArticleHits bounds a legislation search's answer (legislation_search's top_k).
const MaxArticleHits = 20

// ArticleHit is one article a legislation search found, with its fused score.
type ArticleHit struct {
	Article
	AsOf  string
	Score float64
}

// Field weights of the articles' BM25: the article's title and the act's title count
// above the text, since a title names the article's subject in few words. The
// unanalysed index has no words column: SQLite ignores the weight past its columns.
const (
	weightActTitle = 2.0
	weightTitle    = 4.0
	weightText     = 1.0
	// weightWords weighs the words column: the client words of the glossary's
	// concepts an article is about (clientWords) and its plain words (package
	// plain). A client's own words name the subject as a title does; with five
	// writers' words, a lower weight found more articles in the first five and a
	// higher one ranked them first more often, and 2 kept most of both on the tuned
	// sets (docs/tools.md).
	weightWords = 2.0
	// weightHeadings weighs the headings of the parts of the act an article stands in
	// (Article.Headings): "Răspunderea civilă delictuală" names the subject of every
	// article under it, as a client asks it.
	weightHeadings = 4.0
)

// perLanguageDepth is how deep each language's ranking is read before fusion.
const perLanguageDepth = 100

// articleHits reads the best limit articles of scores, best first.
func (s *Store) articleHits(ctx context.Context, scores map[int64]float64, limit int) ([]ArticleHit, error) {
	ids := best(scores, limit)
	hits := make([]ArticleHit, 0, len(ids))
	for _, id := range ids {
		var h ArticleHit
		err := s.db.QueryRowContext(ctx, `SELECT `+prefixed("l.", articleColumns)+`, COALESCE(a.as_of, s.as_of, '')
			FROM legislatie l LEFT JOIN acts a ON l.doc_id > a.act_id || '/' AND l.doc_id < a.act_id || '0'
			LEFT JOIN sources s ON s.source = l.source WHERE l.rowid = ?`, id).Scan(
			&h.DocID, &h.Jurisdiction, &h.Language, &h.ActType, &h.ActNumber, &h.ActYear, &h.ActDate, &h.ActTitle,
			&h.Article.Article, &h.Title, &h.Text, &h.URL, &h.URN, &h.CELEX, &h.InForce, &h.AsOf)
		if err != nil {
			return nil, err
		}
		h.Score = scores[id]
		hits = append(hits, h)
	}
	return hits, nil
}

// prefixed qualifies each of a list of columns with prefix.
func prefixed(prefix, columns string) string {
	var out []string
	for _, c := range strings.Split(columns, ",") {
		out = append(out, prefix+strings.TrimSpace(c))
	}
	return strings.Join(out, ", ")
}

// termsQuery is an FTS5 query matching any of terms, each quoted so that none is read
// as syntax, or any pair of terms next to each other (a phrase: "contract
// achizitie", which ranks above its words apart). A term of minPrefix letters or more
// also matches the longer terms it begins: Snowball leaves "prescri" (prescrie) and
// "prescriptie" apart, and the participle and the noun of a verb. A repeated term is
// asked for once.
func termsQuery(terms []string) string {
	var out []string
	add := func(q string) {
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	for _, t := range terms {
		if t == "" {
			continue
		}
		q := quote(t)
		if len(t) >= minPrefix {
			q += "*"
		}
		add(q)
	}
	for i := 0; i+1 < len(terms); i++ {
		if terms[i] != "" && terms[i+1] != "" {
			add(quote(terms[i] + " " + terms[i+1]))
		}
	}
	return strings.Join(out, " OR ")
}

// minPrefix is the length from which a term also matches as a prefix.
const minPrefix = 5

// quote makes an FTS5 string of s.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// SearchLegislation ranks the articles of a jurisdiction (and act) by a question in
// anyone's words, analysed in its language (languageWeights): one BM25 ranking per
// language over its analysed index (article title and act title weighing above the
// text), fused by reciprocal rank (Σ weight/(60 + rank)). It is SearchLegislationWith
// with no layer on.
func (s *Store) SearchLegislation(ctx context.Context, query, jurisdiction, act string, limit int) ([]ArticleHit, error) {
	return s.SearchLegislationWith(ctx, query, jurisdiction, act, limit, Layers{})
}

// languageTerms are a query's terms in one language that its index holds, and the
// weight of that language's ranking.
type languageTerms struct {
	terms  []string
	weight float64
}

// languageWeights analyses a query in each of langs, keeping the terms each index
// (named by index) holds. When the query's language (QueryLanguage) is one of langs,
// only it counts: an Italian question's words read as Romanian find only accidents.
// Otherwise each language is weighed by the share of the query's terms its index
// holds.
func (s *Store) languageWeights(ctx context.Context, query string, langs []string, index func(string) string) (map[string]languageTerms, error) {
	detected := QueryLanguage(query)
	if !slices.Contains(langs, detected) {
		detected = ""
	}
	out := map[string]languageTerms{}
	for _, lang := range langs {
		if detected != "" && lang != detected {
			continue
		}
		terms := Analyze(lang, query)
		known, err := s.knownTerms(ctx, index(lang), terms)
		if err != nil {
			return nil, err
		}
		w := languageTerms{terms: known, weight: 1}
		if detected == "" && len(terms) > 0 {
			w.weight = float64(len(known)) / float64(len(terms))
		}
		out[lang] = w
	}
	return out, nil
}

// knownTerms returns those of terms that index holds.
func (s *Store) knownTerms(ctx context.Context, index string, terms []string) ([]string, error) {
	var out []string
	for _, t := range terms {
		var n int
		err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+index+` WHERE `+index+` MATCH ? LIMIT 1)`,
			termsQuery([]string{t})).Scan(&n)
		if err != nil {
			return nil, fmt.Errorf("look up %q: %w", t, err)
		}
		if n > 0 {
			out = append(out, t)
		}
	}
	return out, nil
}

// euAliases are the names of the EU acts the corpus holds, folded.
var euAliases = map[string]string{
	"gdpr": "eu/32016R0679", "rgpd": "eu/32016R0679", "regulation 2016 679": "eu/32016R0679",
	"regolamento 2016 679": "eu/32016R0679", "regulamentul 2016 679": "eu/32016R0679",
}

// actIDs returns the ids of the acts a name means: an act id, a name lawyers use
// (actAliases, euAliases), or words of an act's title ("codul muncii"). EU acts have
// one id per language.
func (s *Store) actIDs(ctx context.Context, name string) ([]string, error) {
	query, args := `SELECT act_id FROM acts WHERE act_id = ?`, []any{strings.TrimSuffix(strings.TrimSpace(name), "/")}
	norm := normalizeName(name)
	if id, ok := euAliases[norm]; ok {
		query, args = `SELECT act_id FROM acts WHERE act_id LIKE ?`, []any{id + "/%"}
	} else if jur, actType, number, ok := (ActRef{Type: name}).resolve(); ok {
		query, args = `SELECT act_id FROM acts WHERE jurisdiction = ? AND act_type = ? AND (? = '' OR act_number = ?)`,
			[]any{jur, actType, number, number}
	}
	ids, err := s.strings(ctx, query, args...)
	if err != nil || len(ids) > 0 || norm == "" {
		return ids, err
	}
	all, err := s.strings(ctx, `SELECT act_id || char(0) || act_title FROM acts ORDER BY act_id`)
	for _, row := range all {
		id, title, _ := strings.Cut(row, "\x00")
		if strings.Contains(" "+normalizeName(title)+" ", " "+norm+" ") {
			ids = append(ids, id)
		}
	}
	return ids, err
}

func (s *Store) strings(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// articleRanking is the query of a BM25 ranking of an articles' index (analysed or
// not: both have the columns act_title, title and text), within filter. Joining every
// match to legislatie before sorting costs a row read per match, which on a million
// articles is most of the time: without a filter there is no join, and a filter reads
// only the best rankedCandidates matches.
func articleRanking(index, filter string) string {
	ranked := `SELECT rowid, bm25(` + index + fmt.Sprintf(`, %g, %g, %g, %g, %g) AS score FROM `, weightActTitle, weightTitle, weightText, weightHeadings, weightWords) +
		index + ` WHERE ` + index + ` MATCH ? ORDER BY score`
	if filter == "" {
		return `SELECT rowid FROM (` + ranked + fmt.Sprintf(` LIMIT %d)`, perLanguageDepth)
	}
	return `SELECT f.rowid FROM (` + ranked + fmt.Sprintf(` LIMIT %d) f JOIN legislatie l ON l.rowid = f.rowid WHERE 1`, rankedCandidates) +
		filter + fmt.Sprintf(` ORDER BY f.score LIMIT %d`, perLanguageDepth)
}

// CheckLegislationScope reports whether a legislation search within jurisdiction
// ("" for all) and act ("" for any) can run: an error wrapping ErrJurisdiction or
// ErrNoAct when it cannot. legislation_search asks it before the layers that cost (a
// model's rewrite, an embedding), so that a request the corpus cannot answer spends
// nothing.
func (s *Store) CheckLegislationScope(ctx context.Context, jurisdiction, act string) error {
	_, err := s.legislationScope(ctx, jurisdiction, act)
	return err
}

// articleScope is where a legislation search looks: the languages whose indexes hold
// the jurisdiction's law, the SQL filter of its articles and its act's
// (articleFilter), and the same in Go for rankings outside SQL.
type articleScope struct {
	langs        []string
	filter       string
	args         []any
	jurisdiction string   // JurisdictionAll for all
	acts         []string // the act's articles' doc_id prefixes ("ro/legea-287-2009/"); none without an act
}

// keeps reports whether the scope holds the article docID of jurisdiction.
func (sc articleScope) keeps(docID, jurisdiction string) bool {
	if sc.jurisdiction != JurisdictionAll && jurisdiction != sc.jurisdiction {
		return false
	}
	return sc.acts == nil || slices.ContainsFunc(sc.acts, func(p string) bool { return strings.HasPrefix(docID, p) })
}

// legislationScope returns the scope of a search within a jurisdiction ("" for all)
// and act ("" for every act).
func (s *Store) legislationScope(ctx context.Context, jurisdiction, act string) (articleScope, error) {
	if jurisdiction == "" {
		jurisdiction = JurisdictionAll
	}
	langs, ok := jurisdictionLanguages[jurisdiction]
	if !ok {
		return articleScope{}, fmt.Errorf("%w: %q", ErrJurisdiction, jurisdiction)
	}
	sc := articleScope{langs: langs, jurisdiction: jurisdiction}
	var err error
	sc.filter, sc.args, sc.acts, err = s.articleFilter(ctx, jurisdiction, act)
	return sc, err
}

// rankedCandidates is how many of a ranking's best matches a filter reads: a
// jurisdiction or an act with fewer among them is ranked within them.
const rankedCandidates = 2000

// articleFilter is the SQL condition (on legislatie l) and its arguments that keep a
// jurisdiction's articles, and an act's when act is set, with the doc_id prefixes of
// that act's articles.
func (s *Store) articleFilter(ctx context.Context, jurisdiction, act string) (filter string, args []any, prefixes []string, err error) {
	args = []any{}
	if jurisdiction != JurisdictionAll {
		filter += ` AND l.jurisdiction = ?`
		args = append(args, jurisdiction)
	}
	if act == "" {
		return filter, args, nil, nil
	}
	ids, err := s.actIDs(ctx, act)
	if err != nil {
		return "", nil, nil, err
	}
	if len(ids) == 0 {
		return "", nil, nil, fmt.Errorf("%w: %q", ErrNoAct, act)
	}
	var or []string
	for _, id := range ids {
		or = append(or, `(l.doc_id > ? AND l.doc_id < ?)`)
		args = append(args, id+"/", id+"0") // '0' follows '/': every doc_id under id
		prefixes = append(prefixes, id+"/")
	}
	return filter + ` AND (` + strings.Join(or, " OR ") + `)`, args, prefixes, nil
}

// SearchLegislationUnanalysed is SearchLegislation without the language analysis: the
// words of the query as written (diacritics folded) against the unanalysed index,
// with the same field weights. It is the baseline the evaluation measures the
// analysis against.
func (s *Store) SearchLegislationUnanalysed(ctx context.Context, query, jurisdiction, act string, limit int) ([]ArticleHit, error) {
	sc, err := s.legislationScope(ctx, jurisdiction, act)
	if err != nil {
		return nil, err
	}
	filter, args := sc.filter, sc.args
	scores := map[int64]float64{}
	if match := ftsQuery(query); match != "" {
		if err := s.fuse(ctx, scores, 1, articleRanking("legislatie_fts", filter), append([]any{match}, args...)...); err != nil {
			return nil, fmt.Errorf("rank articles: %w", err)
		}
	}
	return s.articleHits(ctx, scores, min(max(limit, 1), MaxArticleHits))
}

// ActNames returns the titles of the national acts and the EU acts (in English) the
// corpus holds, for telling a caller which acts it may name.
func (s *Store) ActNames(ctx context.Context) ([]string, error) {
	return s.strings(ctx, `SELECT act_title FROM acts WHERE jurisdiction != 'eu' OR language = 'en' ORDER BY jurisdiction, act_title`)
}
