package activities

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// ragResults is how many earlier records retrieval adds to the system prompt.
const ragResults = 3

// excerptChars caps each retrieved excerpt.
const excerptChars = 300

// relevantEarlier returns excerpts of the case's earlier user and assistant records
// that share the most words with query, at most k, best first; later turns win ties.
// Words are compared without case or diacritics, so "garanția" finds "garantia".
func relevantEarlier(query string, recs []store.Record, k int) []string {
	terms := words(query)
	if len(terms) == 0 {
		return nil
	}
	type hit struct {
		rec   store.Record
		score int
	}
	var hits []hit
	for _, r := range recs {
		if r.Role != schemas.RecordUser && r.Role != schemas.RecordAssistant {
			continue
		}
		have := words(r.Content)
		score := 0
		for t := range terms {
			if have[t] {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{r, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return b.rec.TurnNo - a.rec.TurnNo
	})
	var out []string
	for _, h := range hits[:min(len(hits), k)] {
		out = append(out, fmt.Sprintf("turn %d, %s: %s", h.rec.TurnNo, h.rec.Role, clip(strings.Join(strings.Fields(h.rec.Content), " "), excerptChars)))
	}
	return out
}

// words returns the distinct words of at least three letters in s, lower-cased and
// without diacritics.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(corpus.Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 3 {
			out[w] = true
		}
	}
	return out
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
