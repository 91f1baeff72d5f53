package bm25

import (
	"strings"
	"testing"
)

func split(texts ...string) [][]string {
	out := make([][]string, len(texts))
	for i, t := range texts {
		out[i] = strings.Fields(t)
	}
	return out
}

// TestRankWeighsRareTermsAndLength checks BM25's three effects: a rare term outweighs
// a common one, a shorter passage with the same matches ranks higher, and passages
// sharing no term are left out.
func TestRankWeighsRareTermsAndLength(t *testing.T) {
	passages := split(
		"chirie contract chirie contract",             // 0: only the common term
		"chirie evacuare",                             // 1: both, short
		"chirie evacuare alte cuvinte mult mai multe", // 2: both, long
		"nimic comun aici",                            // 3: nothing
		"contract chirie",                             // 4: common term
	)
	hits := Rank([]string{"evacuare", "chirie", "chirie"}, passages, 0)
	if len(hits) != 4 {
		t.Fatalf("hits %v, want 4 (passage 3 shares no term)", hits)
	}
	if hits[0].Index != 1 || hits[1].Index != 2 {
		t.Errorf("order %v: want the short passage with the rare term, then the long one", hits)
	}
	for _, h := range hits {
		if h.Index == 3 || h.Score <= 0 {
			t.Errorf("hit %+v", h)
		}
	}
	if top := Rank([]string{"evacuare"}, passages, 1); len(top) != 1 || top[0].Index != 1 {
		t.Errorf("limit 1: %v", top)
	}
	if none := Rank([]string{"absent"}, passages, 3); len(none) != 0 {
		t.Errorf("no match: %v", none)
	}
}

// TestRankTermFrequencySaturates checks that a passage repeating a term ranks above
// one that holds it once, but by less than the repeat count.
func TestRankTermFrequencySaturates(t *testing.T) {
	hits := Rank([]string{"termen"}, split("termen a b c", "termen termen termen termen", "x y z w"), 0)
	if len(hits) != 2 || hits[0].Index != 1 || hits[0].Score >= 4*hits[1].Score {
		t.Errorf("hits %v", hits)
	}
}
