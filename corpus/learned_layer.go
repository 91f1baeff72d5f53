package corpus

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/corpus/learned"
	"github.com/lexflow/lexflow/corpus/plain"
)

// learnedSchema holds the learned model (package learned) of the corpus's articles,
// trained when the corpus is built. Its documents are the articles' positions in
// legislatie, from 0: rowid - 1.
const learnedSchema = `CREATE TABLE learned (model BLOB NOT NULL);
`

// LearnedWeight weighs the learned ranking in the fusion, as much as the question's
// own words. A question in a language the law is not written in (English about
// Romanian law, as otherLanguages tells it) has none of the law's words to rank: the
// learned model bridges it as the plain words do, and weighs as their ranking,
// PlainWeight (chosen on the tuned sets: English recall@5 88.7% and MRR 0.709 at 1,
// 90.8% and 0.749 at 3).
const LearnedWeight = 1.0

// learnedTextChars bounds the text of an article trained on: its opening says what it
// governs.
const learnedTextChars = 1500

// learnedTerms are the model's terms of text in lang: Analyze's, each prefixed with
// its language, so that a Romanian stem and an English word spelt alike stay apart.
func learnedTerms(a *analyzer, text string) []string {
	terms := a.terms(text, nil)
	for i, t := range terms {
		terms[i] = a.lang + ":" + t
	}
	return terms
}

// fillLearned trains the model from the articles that have plain words (each phrase
// of them, in every language, and the article's titles and the opening of its text),
// drawing each example's negatives from its jurisdiction, and stores it. Articles
// without plain words (a synthetic corpus's) are not placed.
func fillLearned(ctx context.Context, tx *sql.Tx, as analyzers, arts []Article) error {
	words, err := plain.Default()
	if err != nil {
		return err
	}
	terms := func(lang, text string) []string { return learnedTerms(as.of(lang), text) }
	var examples []learned.Example
	group := make([]int32, len(arts))
	jurisdictions := map[string]int32{}
	for i, a := range arts {
		g, ok := jurisdictions[a.Jurisdiction]
		if !ok {
			g = int32(len(jurisdictions))
			jurisdictions[a.Jurisdiction] = g
		}
		group[i] = g
		byLang := words[a.DocID]
		if len(byLang) == 0 || !hasIndex(a.Language) {
			continue
		}
		add := func(lang, text string) {
			if t := terms(lang, text); len(t) > 0 {
				examples = append(examples, learned.Example{Terms: t, Doc: int32(i)})
			}
		}
		for _, lang := range plain.Langs {
			if !hasIndex(lang) {
				continue
			}
			for phrase := range strings.SplitSeq(byLang[lang], " ; ") {
				add(lang, phrase)
			}
		}
		add(a.Language, a.Title+" "+a.ActTitle)
		add(a.Language, clip(a.Text, learnedTextChars))
	}
	data, err := learned.Train(examples, group, learned.Options{}).MarshalBinary()
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO learned VALUES (?)`, data); err != nil {
		return fmt.Errorf("store the learned model: %w", err)
	}
	return nil
}

// learnedIndex is the learned model as a search reads it: the model, and the doc_id
// and jurisdiction of each article it placed, by its position in legislatie.
type learnedIndex struct {
	model        *learned.Model
	docID        map[int32]string
	jurisdiction map[int32]string
}

// learned returns the learned model, read on the first call and kept. A read cut
// short by its caller's context is tried again by the next call, so that one search
// cancelled does not fail every search until the process restarts; any other failure
// (a damaged model) is kept, so that searches do not each read 24 MB to fail again.
func (s *Store) learned(ctx context.Context) (*learnedIndex, error) {
	s.learnedMu.Lock()
	defer s.learnedMu.Unlock()
	if s.learnedIx == nil && s.learnedErr == nil {
		ix, err := s.loadLearned(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.learnedErr = err
			}
			return nil, err
		}
		s.learnedIx = ix
	}
	return s.learnedIx, s.learnedErr
}

// loadLearned reads the model and the doc_ids of the articles it placed.
func (s *Store) loadLearned(ctx context.Context) (*learnedIndex, error) {
	ix := &learnedIndex{model: &learned.Model{}, docID: map[int32]string{}, jurisdiction: map[int32]string{}}
	var data []byte
	if err := s.db.QueryRowContext(ctx, `SELECT model FROM learned`).Scan(&data); err != nil {
		return nil, fmt.Errorf("read the learned model: %w", err)
	}
	if err := ix.model.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	placed := ix.model.Placed()
	if len(placed) == 0 {
		return ix, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT rowid, doc_id, jurisdiction FROM legislatie WHERE rowid <= ?`, int64(placed[len(placed)-1])+1)
	if err != nil {
		return nil, fmt.Errorf("read the learned model's articles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var rowid int64
		var id, jur string
		if err := rows.Scan(&rowid, &id, &jur); err != nil {
			return nil, err
		}
		if d := int32(rowid - 1); isPlaced(placed, d) {
			ix.docID[d], ix.jurisdiction[d] = id, jur
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, d := range placed {
		if _, ok := ix.docID[d]; !ok {
			return nil, fmt.Errorf("the learned model's article %d is not in the corpus", d)
		}
	}
	return ix, nil
}

// isPlaced reports whether placed (ascending) holds d.
func isPlaced(placed []int32, d int32) bool {
	_, ok := slices.BinarySearch(placed, d)
	return ok
}

// rankLearned adds to scores, by reciprocal rank at weight, the articles of the scope
// that the learned model places closest to the query, read in its language, or in
// each when it has no stop words to tell.
func (s *Store) rankLearned(ctx context.Context, scores map[int64]float64, query string, sc articleScope, weight float64) error {
	ix, err := s.learned(ctx)
	if err != nil {
		return err
	}
	langs := Languages
	if q := QueryLanguage(query); q != "" {
		langs = []string{q}
	}
	var terms []string
	for _, lang := range langs {
		terms = append(terms, learnedTerms(newAnalyzer(lang), query)...)
	}
	q := ix.model.Vector(terms)
	if q == nil {
		return nil
	}
	keep := func(d int32) bool { return sc.keeps(ix.docID[d], ix.jurisdiction[d]) }
	var ranked []int64
	for _, h := range ix.model.Nearest(q, perLanguageDepth, keep) {
		ranked = append(ranked, int64(h.Doc)+1)
	}
	fuseRanked(scores, weight, ranked)
	return nil
}
