package eval

import (
	"context"
	"strings"

	"github.com/lexflow/lexflow/corpus"
)

// CitationResult is what the check found for one item.
type CitationResult struct {
	Item CitationItem
	// Found is false when the check extracted no citation where the item's is.
	Found bool
	Got   corpus.Citation
}

// Status is the status the check gave, or "" when it found no citation.
func (r CitationResult) Status() string {
	if !r.Found {
		return ""
	}
	return r.Got.Status
}

// Right reports whether the check found the citation with the expected status and,
// when one is expected, document.
func (r CitationResult) Right() bool {
	return r.Found && r.Got.Status == r.Item.Status && (r.Item.DocID == "" || r.Got.DocID == r.Item.DocID)
}

// RunCitations checks every item's text in its language and picks the citation that
// covers the item's: the one of the item's article when it names several, else the
// one with the expected document, else the first.
func RunCitations(ctx context.Context, s *corpus.Store, items []CitationItem) ([]CitationResult, error) {
	out := make([]CitationResult, 0, len(items))
	for _, it := range items {
		cits, err := s.CheckCitations(ctx, it.Text, it.Language)
		if err != nil {
			return nil, err
		}
		start := strings.Index(it.Text, it.Citation)
		end := start + len(it.Citation)
		var candidates []corpus.Citation
		for _, c := range cits {
			if c.Start < end && start < c.End && (it.Article == "" || c.Article == it.Article) {
				candidates = append(candidates, c)
			}
		}
		res := CitationResult{Item: it, Found: len(candidates) > 0}
		if res.Found {
			res.Got = candidates[0]
			for _, c := range candidates {
				if it.DocID != "" && c.DocID == it.DocID {
					res.Got = c
				}
			}
		}
		out = append(out, res)
	}
	return out, nil
}
