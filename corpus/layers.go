package corpus

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/corpus/dense"
	"github.com/lexflow/lexflow/corpus/glossary"
)

// Layers switches, per search, the layers that legislation search adds to its lexical
// ranking of the question's own words (issue 38, item 3). Each ranks apart and joins
// the lexical ranking by reciprocal rank fusion, so each can be switched off and
// measured on its own.
type Layers struct {
	// Glossary expands the question with the legal terms, in the jurisdiction's
	// languages, of the concepts it names (package glossary), ranked at
	// GlossaryWeight.
	Glossary bool
	// Rewrites are a model's rewrites of the question into the jurisdiction's
	// languages and legal terms, by language ("ro", "it", "en"), ranked at
	// RewriteWeight; nil when no model rewrote it.
	Rewrites map[string]string
	// Dense, with QueryVector (the question's embedding by Dense's model), adds the
	// articles closest to the question, ranked at DenseWeight.
	Dense       *dense.Index
	QueryVector []float32
	// Learned adds the articles the corpus's learned model (package learned) places
	// closest to the question, ranked at LearnedWeight (PlainWeight for a question in
	// a language the law is not written in).
	Learned bool
}

// Weights of the layers' rankings in the fusion, against 1 for the question's own
// words: expansions and rewrites stand below what the client wrote.
const (
	GlossaryWeight = 0.5
	RewriteWeight  = 0.75
	DenseWeight    = 1.0
	// PlainWeight weighs a question's own words against the plain words its articles
	// have in the question's language, when that is not the law's: the client's words
	// against words written as clients say them: offline, with the glossary, the
	// bridge from an English question to Romanian or Italian law.
	PlainWeight = 3.0
)

// SearchLegislationWith is SearchLegislation with layers: the question's own words
// ranked, then each layer that is on (the glossary, the model's rewrites, the dense
// ranking) fused beside them.
func (s *Store) SearchLegislationWith(ctx context.Context, query, jurisdiction, act string, limit int, l Layers) ([]ArticleHit, error) {
	sc, err := s.legislationScope(ctx, jurisdiction, act)
	if err != nil {
		return nil, err
	}
	langs, filter, args := sc.langs, sc.filter, sc.args
	scores := map[int64]float64{}
	rankMatch := func(lang, match string, weight float64) error {
		if match == "" || weight <= 0 {
			return nil
		}
		if err := s.fuse(ctx, scores, weight, articleRanking(articleIndex(lang), filter), append([]any{match}, args...)...); err != nil {
			return fmt.Errorf("rank articles: %w", err)
		}
		return nil
	}
	rank := func(lang string, terms []string, weight float64) error {
		return rankMatch(lang, termsQuery(terms), weight)
	}
	// The glossary's terms rank the articles' own columns (ownColumns).
	rankOwn := func(lang string, terms []string, weight float64) error {
		return rankMatch(lang, ownColumns(termsQuery(terms)), weight)
	}
	own, err := s.languageWeights(ctx, query, langs, articleIndex)
	if err != nil {
		return nil, err
	}
	for _, lang := range langs {
		if err := rank(lang, own[lang].terms, own[lang].weight); err != nil {
			return nil, err
		}
	}
	// A question in a language the jurisdiction's law is not written in (English about
	// Romanian law) meets the plain words its articles have in that language (package
	// plain), which that language's index holds as rows of words alone.
	others, err := s.otherLanguages(ctx, query, langs, own)
	if err != nil {
		return nil, err
	}
	for _, lang := range Languages { // in order: the sums of the fusion are then the same on every run
		if w, ok := others[lang]; ok {
			if err := rankMatch(lang, wordsColumn(termsQuery(w.terms)), PlainWeight*w.weight); err != nil {
				return nil, err
			}
		}
	}
	// The glossary is the bridge from a question's language to the law's: when the
	// question is in a language the jurisdiction's law is written in, its own words
	// are searched (languageWeights) and the glossary adds nothing, since its terms
	// in the same language ranked common words ("proprietario") above the law asked.
	if l.Glossary && !slices.Contains(langs, QueryLanguage(query)) {
		if err := s.rankGlossary(query, langs, rankOwn); err != nil {
			return nil, err
		}
	}
	for _, lang := range langs {
		if text := l.Rewrites[lang]; text != "" {
			if err := rank(lang, Analyze(lang, text), RewriteWeight); err != nil {
				return nil, err
			}
		}
	}
	if l.Learned {
		weight := LearnedWeight
		if len(others) > 0 { // a question in a language the law is not written in
			weight = PlainWeight
		}
		if err := s.rankLearned(ctx, scores, query, sc, weight); err != nil {
			return nil, err
		}
	}
	if l.Dense != nil && len(l.QueryVector) > 0 {
		if err := s.rankDense(ctx, scores, l.Dense.Search(l.QueryVector, perLanguageDepth), filter, args); err != nil {
			return nil, err
		}
	}
	return s.articleHits(ctx, scores, min(max(limit, 1), MaxArticleHits))
}

// rankGlossary ranks, in each language, the glossary's legal terms for the concepts
// the query names.
func (s *Store) rankGlossary(query string, langs []string, rank func(string, []string, float64) error) error {
	g, err := glossary.Default()
	if err != nil {
		return err
	}
	var gl []glossary.Lang
	for _, l := range langs {
		gl = append(gl, glossary.Lang(l))
	}
	terms := map[string][]string{}
	for _, t := range g.Expand(query, gl, glossary.MaxTerms) {
		terms[string(t.Lang)] = append(terms[string(t.Lang)], Analyze(string(t.Lang), t.Text)...)
	}
	for _, lang := range langs {
		if err := rank(lang, terms[lang], GlossaryWeight); err != nil {
			return err
		}
	}
	return nil
}

// ownColumns restricts an FTS5 query of an articles' index to the article's own
// columns, leaving out the headings of the parts it stands in: the glossary's legal
// terms name concepts that a heading covers by the hundred ("Contracte speciale"),
// and measured with the headings they lost English questions to them (docs/tools.md).
func ownColumns(match string) string {
	if match == "" {
		return ""
	}
	return "{act_title title text words} : (" + match + ")"
}

// otherLanguages are the languages outside langs that a question may be written in,
// with its terms in each and their weight: the question's language (QueryLanguage)
// at 1 when it is one; when the question has no stop words to tell ("dog bite
// compensation", as a model writes a query), each language the law is not written in
// whose index holds more of the question's terms than the law's languages do (own,
// from languageWeights), weighed by the share it holds; none when the question is in
// one of langs.
func (s *Store) otherLanguages(ctx context.Context, query string, langs []string, own map[string]languageTerms) (map[string]languageTerms, error) {
	out := map[string]languageTerms{}
	if q := QueryLanguage(query); q != "" {
		if hasIndex(q) && !slices.Contains(langs, q) {
			out[q] = languageTerms{terms: Analyze(q, query), weight: 1}
		}
		return out, nil
	}
	lawKnows := 0
	for _, w := range own {
		lawKnows = max(lawKnows, len(w.terms))
	}
	for _, lang := range Languages {
		if slices.Contains(langs, lang) {
			continue
		}
		terms := Analyze(lang, query)
		known, err := s.knownTerms(ctx, articleIndex(lang), terms)
		if err != nil {
			return nil, err
		}
		if len(known) > lawKnows {
			out[lang] = languageTerms{terms: known, weight: float64(len(known)) / float64(len(terms))}
		}
	}
	return out, nil
}

// wordsColumn restricts an FTS5 query of an articles' index to its words column: the
// plain words and the glossary's client words of each article.
func wordsColumn(match string) string {
	if match == "" {
		return ""
	}
	return "{words} : (" + match + ")"
}

// rankDense adds the dense hits that filter keeps to scores, by reciprocal rank
// (fuseRanked).
func (s *Store) rankDense(ctx context.Context, scores map[int64]float64, hits []dense.Hit, filter string, args []any) error {
	if len(hits) == 0 {
		return nil
	}
	ids := make([]any, len(hits))
	for i, h := range hits {
		ids[i] = h.DocID
	}
	rows, err := s.db.QueryContext(ctx, `SELECT l.rowid, l.doc_id FROM legislatie l WHERE l.doc_id IN (?`+
		strings.Repeat(",?", len(ids)-1)+`)`+filter, append(ids, args...)...)
	if err != nil {
		return fmt.Errorf("dense hits: %w", err)
	}
	defer rows.Close()
	rowid := map[string]int64{}
	for rows.Next() {
		var id int64
		var doc string
		if err := rows.Scan(&id, &doc); err != nil {
			return err
		}
		rowid[doc] = id
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var ranked []int64
	for _, h := range hits {
		if id, ok := rowid[h.DocID]; ok {
			ranked = append(ranked, id)
		}
	}
	fuseRanked(scores, DenseWeight, ranked)
	return nil
}
