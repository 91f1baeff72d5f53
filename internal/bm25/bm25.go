// Package bm25 ranks a handful of short texts (passages) against a query by Okapi
// BM25, in memory: for the few thousand passages of one case, where an index on disk
// would cost more than it saves. The caller analyses the texts (stems, folds, drops
// stop words) and hands over their terms.
package bm25

import (
	"cmp"
	"math"
	"slices"
)

// Okapi BM25's usual parameters: term frequency saturates as k1 sets it, and b
// weighs a passage's length against the average.
const (
	k1 = 1.2
	b  = 0.75
)

// Hit is one ranked passage: its index among those given, and its score.
type Hit struct {
	Index int
	Score float64
}

// Rank scores each passage (its terms, repeats kept) against the query's terms and
// returns the passages that share a term with it, best first, at most limit (all when
// limit <= 0); a tie keeps the passages' order. A term the query repeats counts once.
func Rank(query []string, passages [][]string, limit int) []Hit {
	if len(passages) == 0 {
		return nil
	}
	terms := slices.Compact(slices.Sorted(slices.Values(query)))
	df := make(map[string]int, len(terms))
	total := 0
	for _, p := range passages {
		total += len(p)
		seen := map[string]bool{}
		for _, t := range p {
			if !seen[t] && slices.Contains(terms, t) {
				seen[t] = true
				df[t]++
			}
		}
	}
	avg := float64(total) / float64(len(passages))
	n := float64(len(passages))
	var hits []Hit
	for i, p := range passages {
		tf := map[string]int{}
		for _, t := range p {
			if _, ok := df[t]; ok {
				tf[t]++
			}
		}
		if len(tf) == 0 {
			continue
		}
		score, norm := 0.0, 1-b
		if avg > 0 {
			norm += b * float64(len(p)) / avg
		}
		for _, t := range terms {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			score += idf * f * (k1 + 1) / (f + k1*norm)
		}
		hits = append(hits, Hit{Index: i, Score: score})
	}
	slices.SortStableFunc(hits, func(x, y Hit) int { return cmp.Compare(y.Score, x.Score) }) // best first
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}
