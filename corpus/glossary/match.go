package glossary

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// words folds s for matching (lower case, diacritics stripped, so that comma-below ș/ț,
// cedilla ş/ţ and plain s/t meet) and splits it into words of letters and digits.
func words(s string) []string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}

// stem cuts a folded word to the part its inflected forms share: a final vowel goes from
// words of five letters or more (locazione/locazioni, prestație/prestația). A stem then
// matches the words it begins (locațiune/locațiunea), and a stem of four letters or fewer
// only those at most shortTail letters longer (furt/furtul, but viol/violul and not
// violenza, rent/rental and not renovation).
func stem(w string) string {
	if len(w) >= 5 && strings.IndexByte("aeiouy", w[len(w)-1]) >= 0 {
		return w[:len(w)-1]
	}
	return w
}

// stems returns the stems of a term's words.
func stems(term string) []string {
	ws := words(term)
	for i, w := range ws {
		ws[i] = stem(w)
	}
	return ws
}

// matchAt reports whether the words of text starting at i begin with the stems, one
// word each.
func matchAt(text []string, i int, st []string) bool {
	if i+len(st) > len(text) {
		return false
	}
	for j, s := range st {
		if !strings.HasPrefix(text[i+j], s) || len(s) <= shortStem && len(text[i+j])-len(s) > shortTail {
			return false
		}
	}
	return true
}

// A stem of shortStem letters or fewer matches only words at most shortTail letters
// longer: short stems begin too many unrelated words.
const (
	shortStem = 4
	shortTail = 3
)

// Mentions reports whether text uses term, in any inflected form the stems allow and
// whatever its diacritics.
func Mentions(text, term string) bool {
	st := stems(term)
	if len(st) == 0 {
		return false
	}
	tw := words(text)
	for i := range tw {
		if matchAt(tw, i, st) {
			return true
		}
	}
	return false
}

// entry is one term of the index: its stems, the concept it names and its language.
type entry struct {
	stems   []string
	concept int
	lang    Lang
	legal   bool
}

// index finds terms by the first letters of their first word.
type index map[string][]entry

// keyLen is how many letters of a word's beginning key the index.
const keyLen = 3

func key(w string) string {
	if len(w) > keyLen {
		return w[:keyLen]
	}
	return w
}

func newIndex(cs []Concept) index {
	ix := index{}
	for ci, c := range cs {
		for _, l := range Langs {
			for legal, terms := range [][]string{c.Words[l], c.Legal[l]} {
				for _, t := range terms {
					st := stems(t)
					if len(st) == 0 {
						continue
					}
					k := key(st[0])
					ix[k] = append(ix[k], entry{stems: st, concept: ci, lang: l, legal: legal == 1})
				}
			}
		}
	}
	return ix
}

// Match is a concept found in a text: the words that named it, where they start, and
// the language of the term they matched.
type Match struct {
	Concept *Concept
	Lang    Lang
	Start   int // index of the first matched word
	Words   int // how many words matched
}

// longer reports whether stems a make a longer term than b: more words, or as many
// words with more letters (chiriaș is more than chirie in "chiriașul").
func longer(a, b []string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return len(strings.Join(a, "")) > len(strings.Join(b, ""))
}

// Find returns the concepts text names, left to right. At each word the longest term
// (most words, then most letters) wins and its words are consumed, so "right of withdrawal" is one concept, not also
// "withdrawal". A term matches only from a word's start.
func (g *Glossary) Find(text string) []Match {
	tw := words(text)
	var out []Match
	for i := 0; i < len(tw); {
		best := entry{}
		for k := min(len(tw[i]), keyLen); k >= 1; k-- {
			for _, e := range g.index[tw[i][:k]] {
				if longer(e.stems, best.stems) && matchAt(tw, i, e.stems) {
					best = e
				}
			}
		}
		if best.stems == nil {
			i++
			continue
		}
		out = append(out, Match{Concept: &g.concepts[best.concept], Lang: best.lang, Start: i, Words: len(best.stems)})
		i += len(best.stems)
	}
	return out
}
