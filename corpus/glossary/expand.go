package glossary

import "slices"

// Term is a search term the glossary adds to a query.
type Term struct {
	Text    string
	Lang    Lang
	Weight  float64 // relative to the query's own words, which weigh 1
	Concept string  // the ID of the concept it came from
}

// Expansion weights: the first legal term of a concept in a language is the one the
// code uses most; the others are synonyms or narrower forms. Both stay below the
// query's own words, so a client's exact words still rank first when they occur.
const (
	FirstWeight = 0.6
	OtherWeight = 0.4
)

// MaxTerms bounds an expansion when the caller passes no bound of its own.
const MaxTerms = 12

// LangsOf returns the languages whose legal terms a search in jurisdiction needs: "ro"
// Romanian, "it" Italian, "eu" the three languages the GDPR is shipped in, anything else
// (all jurisdictions) all three.
func LangsOf(jurisdiction string) []Lang {
	switch jurisdiction {
	case "ro":
		return []Lang{RO}
	case "it":
		return []Lang{IT}
	default:
		return Langs
	}
}

// Expand returns the legal terms, in the languages langs, of the concepts query names,
// at most max of them (MaxTerms if max <= 0). Concepts take turns, in the order the query
// names them, so that one concept with many terms does not crowd out the next; a term
// the query already uses is not added again.
func (g *Glossary) Expand(query string, langs []Lang, max int) []Term {
	if max <= 0 {
		max = MaxTerms
	}
	var queues [][]Term
	seen := map[string]bool{}
	for _, m := range g.Find(query) {
		if seen[m.Concept.ID] {
			continue
		}
		seen[m.Concept.ID] = true
		var q []Term
		for _, l := range langs {
			for i, t := range m.Concept.Legal[l] {
				w := OtherWeight
				if i == 0 {
					w = FirstWeight
				}
				if !Mentions(query, t) {
					q = append(q, Term{Text: t, Lang: l, Weight: w, Concept: m.Concept.ID})
				}
			}
		}
		// The first term of each language goes before the others.
		slices.SortStableFunc(q, func(a, b Term) int {
			switch {
			case a.Weight > b.Weight:
				return -1
			case a.Weight < b.Weight:
				return 1
			}
			return 0
		})
		queues = append(queues, q)
	}
	var out []Term
	for round := 0; len(out) < max; round++ {
		added := false
		for _, q := range queues {
			if round < len(q) && len(out) < max {
				out = append(out, q[round])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}
