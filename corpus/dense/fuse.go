package dense

import (
	"cmp"
	"slices"
)

// Ranking is one ranked list of document IDs, best first, and its weight in a fusion.
type Ranking struct {
	IDs    []string
	Weight float64
}

// RRFK is reciprocal rank fusion's constant: a document at rank r (from 1) of a
// ranking of weight w scores w/(RRFK + r). 60 is the constant of Cormack, Clarke and
// Büttcher (2009), and the one legislation_search's per-language fusion uses.
const RRFK = 60

// Fuse merges rankings by reciprocal rank fusion and returns the documents best first;
// ties keep the order in which the documents were first seen.
func Fuse(rankings ...Ranking) []Hit {
	score := map[string]float64{}
	var order []string
	for _, r := range rankings {
		for i, id := range r.IDs {
			if _, ok := score[id]; !ok {
				order = append(order, id)
			}
			score[id] += r.Weight / float64(RRFK+i+1)
		}
	}
	out := make([]Hit, len(order))
	for i, id := range order {
		out[i] = Hit{id, score[id]}
	}
	slices.SortStableFunc(out, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return out
}
