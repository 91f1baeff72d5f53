package corpus

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Field weights of the decisions' BM25 rankings, over materia, massima, summary,
// reasoning, arguments and words (the plain words of package plain): the first
// ranking reads what a court or an editor wrote about the decision and the words a
// client uses for it, the second the full text alone (textColumns); both weigh the
// court's reasoning and operative part above the parties' arguments.
var (
	decisionSummaryWeights = []float64{2, 10, 5, 1, 0.3, 5}
	decisionTextWeights    = []float64{0, 0, 0, 1, 0.3, 0}
)

// weightList writes BM25 column weights as bm25() takes them: "2, 10, 5".
func weightList(w []float64) string {
	out := make([]string, len(w))
	for i, x := range w {
		out[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(out, ", ")
}

// writtenColumns restricts an FTS5 query of a decisions' index to the columns of the
// decisions written in its language: the glossary's legal terms in a language meet the
// decisions written in it, not the plain words of decisions in another language,
// whose own words their own index already ranks.
func writtenColumns(match string) string {
	return "{materia massima summary reasoning arguments} : (" + match + ")"
}

// textColumns restricts an FTS5 query of a decisions' index to the full text's
// columns, so that the full-text ranking matches no row by another column.
func textColumns(match string) string { return "{reasoning arguments} : (" + match + ")" }

// wordsWeight is the weight of the unanalysed rankings in SearchDecisions's fusion:
// words as written still find what analysis misses across languages (an English
// question naming "peculato" or "art. 353-bis c.p.").
const wordsWeight = 0.5

// SearchDecisions ranks decisions by a legal concept in anyone's words. The query is
// analysed in its language (languageWeights), whose index is ranked twice, once
// weighing the massime and summaries and once the full texts, both weighing the
// court's reasoning and operative part above the parties' arguments; the unanalysed
// index is ranked the same two ways, and the four rankings are fused by reciprocal
// rank. Optionally within a scope (a subject matter, a jurisdiction); at most limit
// hits. It is SearchDecisionsWith with no layer on.
func (s *Store) SearchDecisions(ctx context.Context, query string, scope DecisionScope, limit int) ([]Hit, error) {
	return s.SearchDecisionsWith(ctx, query, scope, limit, DecisionLayers{})
}

// DecisionScope narrows a decision search: to a subject matter (a part of the
// materia, as written or with its diacritics folded) and to a jurisdiction's courts
// ("ro", "it"; "" or JurisdictionAll for both).
type DecisionScope struct {
	Materia, Jurisdiction string
}

// ErrDecisionJurisdiction means a decision search's jurisdiction is none of ro, it and
// all: the corpus holds Romanian and Italian decisions only.
var ErrDecisionJurisdiction = errors.New("unknown jurisdiction for decisions: want ro, it or all")

// Check reports whether a decision search can run within the scope: ErrDecisionJurisdiction
// for a jurisdiction that is none of ro, it and all.
func (sc DecisionScope) Check() error {
	switch sc.Jurisdiction {
	case "", JurisdictionAll, "ro", "it":
		return nil
	}
	return ErrDecisionJurisdiction
}

// everyCourt reports whether the scope takes both countries' courts.
func (sc DecisionScope) everyCourt() bool {
	return sc.Jurisdiction == "" || sc.Jurisdiction == JurisdictionAll
}

// holds reports whether a language's index may hold decisions of the scope's
// jurisdiction: its own language's, and English, whose index holds every decision's
// English words.
func (sc DecisionScope) holds(lang string) bool {
	return sc.everyCourt() || lang == sc.Jurisdiction || lang == "en"
}

// filter is the scope as SQL conditions on jurisprudenta j, with their arguments.
func (sc DecisionScope) filter() (string, []any, error) {
	if err := sc.Check(); err != nil {
		return "", nil, err
	}
	filter, args := "", []any{}
	if !sc.everyCourt() {
		filter += ` AND j.jurisdiction = ?`
		args = append(args, sc.Jurisdiction)
	}
	if sc.Materia != "" {
		filter += ` AND (j.materia LIKE ? OR j.materia LIKE ?)`
		args = append(args, "%"+sc.Materia+"%", "%"+Fold(sc.Materia)+"%")
	}
	return filter, args, nil
}

// DecisionLayers switches, per search, the layers that decision search adds to its
// lexical rankings, as Layers does for legislation.
type DecisionLayers struct {
	// Glossary expands the question with the legal terms, in the languages of the
	// decisions other than the question's, of the concepts it names (package
	// glossary), ranked at GlossaryWeight.
	Glossary bool
}

// SearchDecisionsWith is SearchDecisions with layers: the glossary's legal terms for
// the concepts a question names, in the other languages decisions are written in,
// ranked in those languages' indexes and fused beside the question's own words, so
// that "embezzlement" reaches "peculato" and "public procurement" "achiziții
// publice".
func (s *Store) SearchDecisionsWith(ctx context.Context, query string, scope DecisionScope, limit int, l DecisionLayers) ([]Hit, error) {
	filter, args, err := scope.filter()
	if err != nil {
		return nil, err
	}
	scores := map[int64]float64{}
	if err := s.rankUnanalysed(ctx, scores, query, wordsWeight, filter, args); err != nil {
		return nil, err
	}
	// rankIn returns the ranking of terms in a language's index, fused twice: over the
	// summary ranking's columns, as summary restricts them, and over the full text's.
	// An index that holds none of the scope's decisions is not ranked.
	rankIn := func(summary func(string) string) func(string, []string, float64) error {
		return func(lang string, terms []string, weight float64) error {
			match := termsQuery(terms)
			if match == "" || weight <= 0 || !scope.holds(lang) {
				return nil
			}
			for _, r := range []struct {
				weights []float64
				match   string
			}{{decisionSummaryWeights, summary(match)}, {decisionTextWeights, textColumns(match)}} {
				q := decisionRanking(decisionIndex(lang), weightList(r.weights), filter)
				if err := s.fuse(ctx, scores, weight, q, append([]any{r.match}, args...)...); err != nil {
					return fmt.Errorf("search decisions: %w", err)
				}
			}
			return nil
		}
	}
	rank := rankIn(func(match string) string { return match })
	own, err := s.languageWeights(ctx, query, Languages, decisionIndex)
	if err != nil {
		return nil, err
	}
	for _, lang := range Languages {
		if err := rank(lang, own[lang].terms, own[lang].weight); err != nil {
			return nil, err
		}
	}
	if l.Glossary {
		others := slices.DeleteFunc(slices.Clone(Languages), func(lang string) bool { return lang == QueryLanguage(query) })
		if err := s.rankGlossary(query, others, rankIn(writtenColumns)); err != nil {
			return nil, err
		}
	}
	return s.decisionHits(ctx, scores, limit)
}

// unanalysedWeights are the BM25 column weights (materia, massima, summary, full text)
// of the unanalysed index's two rankings: the massime and summaries weighing most,
// and the full text alone.
var unanalysedWeights = [][]float64{{2, 10, 5, 1}, {0, 0, 0, 1}}

// rankUnanalysed fuses the unanalysed index's two rankings of the query's words as
// written, within filter, at weight.
func (s *Store) rankUnanalysed(ctx context.Context, scores map[int64]float64, query string, weight float64, filter string, args []any) error {
	match := ftsQuery(query)
	if match == "" {
		return nil
	}
	for _, w := range unanalysedWeights {
		if err := s.fuse(ctx, scores, weight, decisionRanking("jurisprudenta_fts", weightList(w), filter), append([]any{match}, args...)...); err != nil {
			return fmt.Errorf("search decisions: %w", err)
		}
	}
	return nil
}

// decisionRanking is the query of a BM25 ranking of a decisions' index with the column
// weights weights, within filter (on jurisprudenta j): a match is joined to its row
// only when a filter needs it, since that read per match is most of the time on a
// large corpus. A filter reads every match, so that a narrow one (a subject matter,
// a jurisdiction whose decisions are few among the matches) loses none.
func decisionRanking(index, weights, filter string) string {
	if filter == "" {
		return `SELECT rowid FROM ` + index + ` WHERE ` + index + ` MATCH ? ORDER BY bm25(` + index + `, ` + weights + `) LIMIT 100`
	}
	return `SELECT f.rowid FROM ` + index + ` f JOIN jurisprudenta j ON j.rowid = f.rowid WHERE ` + index + ` MATCH ?` + filter +
		` ORDER BY bm25(` + index + `, ` + weights + `) LIMIT 100`
}

// fuse adds to scores the reciprocal ranks of the rowids query returns, best first
// (fuseRanked).
func (s *Store) fuse(ctx context.Context, scores map[int64]float64, weight float64, query string, args ...any) error {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	fuseRanked(scores, weight, ids)
	return nil
}

// fuseRanked is reciprocal rank fusion: it adds weight/(rrfK + rank) to the score of
// each of ids, ranked best first from 1.
func fuseRanked(scores map[int64]float64, weight float64, ids []int64) {
	for i, id := range ids {
		scores[id] += weight / float64(rrfK+i+1)
	}
}
