package corpus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Vocabulary returns the words of the corpus's texts, most frequent first.
func (s *Store) Vocabulary(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT text FROM legislatie UNION ALL SELECT full_text FROM jurisprudenta`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	freq := map[string]int{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) }) {
			freq[w]++
		}
	}
	words := make([]string, 0, len(freq))
	for w := range freq {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int {
		if freq[a] != freq[b] {
			return freq[b] - freq[a]
		}
		return strings.Compare(a, b)
	})
	return words, rows.Err()
}

// Synthesize writes a synthetic corpus of articles and decisions to path, for
// benchmarks: texts of 40 to 120 words drawn from vocab (most frequent first) with a
// Zipf distribution, as real texts are, reproducible from seed.
func Synthesize(ctx context.Context, path string, vocab []string, articles, decisions int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	text := func() string {
		n := 40 + rng.IntN(80)
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[zipf.Uint64()]
		}
		return strings.Join(w, " ")
	}
	arts := make([]Article, articles)
	for i := range arts {
		act := i / 3000
		arts[i] = Article{DocID: fmt.Sprintf("synthetic/act-%d/art-%d", act, i%3000+1), Jurisdiction: "it", Language: "it",
			ActType: "codice sintetico", ActNumber: strconv.Itoa(act), ActYear: 2000, ActTitle: fmt.Sprintf("Codice sintetico %d", act),
			Article: strconv.Itoa(i%3000 + 1), Title: text()[:40], Text: text(), InForce: true}
	}
	decs := make([]Decision, decisions)
	for i := range decs {
		decs[i] = Decision{DocID: fmt.Sprintf("synthetic/dec-%d", i), Jurisdiction: "it", Language: "it", Kind: "sentenza",
			Court: cassazioneCourt, Section: "Terza", Number: strconv.Itoa(i), Year: 2020, Materia: vocab[100+i%50],
			Massima: text(), Summary: text(), FullText: text() + " " + text()}
	}
	return write(ctx, path, "synthetic", arts, decs, Counts{"synthetic": {Articles: articles, Decisions: decisions}})
}

// Latency is the median and 99th percentile of a set of timings.
type Latency struct {
	P50, P99 time.Duration
}

func latency(ds []time.Duration) Latency {
	slices.Sort(ds)
	return Latency{P50: ds[len(ds)/2], P99: ds[min(len(ds)-1, len(ds)*99/100)]}
}

// BenchResult compares a tool's lookup with the naive scan for the same need.
type BenchResult struct {
	Tool          string
	Lookup, Naive Latency
}

// Bench times, over n queries drawn from seed, the lookups behind kb_search (ranked
// full-text search over decisions, within the Italian courts as a model asks it for an
// Italian case), normattiva_search (an article by act and number,
// as the tool looks it up) and legislation_search (articles ranked by a question, with
// the offline layers the tool runs by default, the glossary and the learned model, in
// every jurisdiction), next to the naive scan seed 003's prompts suggest:
// LOWER(text) LIKE '%term1%' AND LOWER(text) LIKE '%term2%' LIMIT 10. Query terms are
// words of middling frequency in vocab (ranks 500 to 5000), as a legal concept is.
func (s *Store) Bench(ctx context.Context, vocab []string, n int, seed uint64) ([]BenchResult, error) {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var acts []struct{ jurisdiction, actType, article string }
	rows, err := s.db.QueryContext(ctx, `SELECT jurisdiction, act_type, article FROM legislatie WHERE jurisdiction != 'eu' ORDER BY rowid`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var a struct{ jurisdiction, actType, article string }
		if err := rows.Scan(&a.jurisdiction, &a.actType, &a.article); err != nil {
			rows.Close()
			return nil, err
		}
		acts = append(acts, a)
	}
	rows.Close()
	if len(acts) == 0 {
		return nil, fmt.Errorf("the corpus has no national articles to look up")
	}
	words := vocab[min(500, len(vocab)-1):min(5000, len(vocab))]
	pair := func() (string, string) { return words[rng.IntN(len(words))], words[rng.IntN(len(words))] }
	timed := func(f func() error) (time.Duration, error) {
		start := time.Now()
		err := f()
		return time.Since(start), err
	}
	var kb, kbNaive, art, artNaive, leg []time.Duration
	for range n {
		w1, w2 := pair()
		d, err := timed(func() error {
			_, err := s.SearchDecisions(ctx, w1+" "+w2, DecisionScope{Jurisdiction: "it"}, 5)
			return err
		})
		if err != nil {
			return nil, err
		}
		kb = append(kb, d)
		d, err = timed(func() error { return s.naive(ctx, "jurisprudenta", "full_text", w1, w2) })
		if err != nil {
			return nil, err
		}
		kbNaive = append(kbNaive, d)
		a := acts[rng.IntN(len(acts))]
		d, err = timed(func() error {
			_, err := s.oneArticle(ctx, `SELECT `+articleColumns+` FROM legislatie WHERE jurisdiction = ? AND act_type = ? AND article = ? LIMIT 1`,
				a.jurisdiction, a.actType, a.article)
			return err
		})
		if err != nil {
			return nil, err
		}
		art = append(art, d)
		d, err = timed(func() error { return s.naive(ctx, "legislatie", "text", w1, w2) })
		if err != nil {
			return nil, err
		}
		artNaive = append(artNaive, d)
		d, err = timed(func() error {
			_, err := s.SearchLegislationWith(ctx, w1+" "+w2, JurisdictionAll, "", 5, Layers{Glossary: true, Learned: true})
			return err
		})
		if err != nil {
			return nil, err
		}
		leg = append(leg, d)
	}
	return []BenchResult{
		{Tool: "kb_search", Lookup: latency(kb), Naive: latency(kbNaive)},
		{Tool: "normattiva_search", Lookup: latency(art), Naive: latency(artNaive)},
		{Tool: "legislation_search", Lookup: latency(leg), Naive: latency(artNaive)},
	}, nil
}

// naive runs the scan seed 003's prompts suggest and reads its rows.
func (s *Store) naive(ctx context.Context, table, column, w1, w2 string) error {
	rows, err := s.db.QueryContext(ctx, `SELECT doc_id FROM `+table+` WHERE LOWER(`+column+`) LIKE ? AND LOWER(`+column+`) LIKE ? LIMIT 10`,
		"%"+w1+"%", "%"+w2+"%")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}
