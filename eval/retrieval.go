package eval

import (
	"context"
	"slices"

	"github.com/lexflow/lexflow/corpus"
)

// maxRank is how deep a retrieval result is read: kb_search's largest top_k.
const maxRank = 20

// RetrievalResult is where kb_search's ranking put the first expected decision.
type RetrievalResult struct {
	Item RetrievalItem
	// Rank is 1 for the first result, 0 when no expected decision is in the first
	// maxRank.
	Rank int
}

// RunRetrieval asks kb_search's ranking every question within its jurisdiction, with
// the layers kb_search runs by default (the glossary).
func RunRetrieval(ctx context.Context, s *corpus.Store, items []RetrievalItem) ([]RetrievalResult, error) {
	out := make([]RetrievalResult, 0, len(items))
	for _, it := range items {
		hits, err := s.SearchDecisionsWith(ctx, it.Question, it.scope(), maxRank, corpus.DecisionLayers{Glossary: true})
		if err != nil {
			return nil, err
		}
		res := RetrievalResult{Item: it}
		for i, h := range hits {
			if slices.Contains(it.Expect, h.DocID) {
				res.Rank = i + 1
				break
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// scope is the item's scope as kb_search is asked it: within its jurisdiction.
func (it RetrievalItem) scope() corpus.DecisionScope {
	return corpus.DecisionScope{Jurisdiction: it.Jurisdiction}
}
