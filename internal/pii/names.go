package pii

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Names masks known names (a case's parties, their aliases and addresses) wherever
// they stand as whole words, whatever their case and diacritics and however the
// spaces between their words are written: "Stefan" and "ŞTEFAN" (with a cedilla) are
// "Ștefan", and "Ion\nPopescu" and "Ion\u00a0Popescu" (a no-break space) are "Ion
// Popescu". Where names overlap, the one that starts first wins, and of those
// starting at the same place the longest.
//
// The names are one trie of their folded forms, walked from each place a word may
// start: masking costs the text's length times at most the longest name's, however
// many names there are.
type Names struct {
	t *trie
	// given is each name as NewNames was given it (its spaces made single), by the
	// index the trie answers; the first given of names that fold alike stands for all.
	given []string
}

// NewNames returns a masker of names; blank ones and single letters are left out.
func NewNames(names ...string) Names {
	t := &trie{nodes: []node{{name: -1}}}
	var given []string
	for _, n := range names {
		if n = strings.Join(strings.Fields(n), " "); utf8.RuneCountInString(n) > 1 {
			if f, _ := fold(n); t.add(f, len(given)) {
				given = append(given, n)
			}
		}
	}
	if len(given) == 0 {
		return Names{}
	}
	return Names{t: t, given: given}
}

// Mask returns s with each known name that stands as a whole word replaced by with.
func (n Names) Mask(s, with string) string {
	out, _ := n.Replace(context.Background(), s, func(string) string { return with })
	return out
}

// checkEvery is how many bytes of text Replace reads between looks at its context.
const checkEvery = 32 << 10

// Replace returns s with each known name that stands as a whole word replaced by what
// with returns for it: the name as NewNames was given it. It stops with ctx's error
// once ctx is done.
func (n Names) Replace(ctx context.Context, s string, with func(name string) string) (string, error) {
	if n.t == nil {
		return s, ctx.Err()
	}
	folded, at := fold(s)
	var b strings.Builder
	last, checked := 0, 0
	for pos := 0; pos < len(folded); {
		if pos-checked >= checkEvery {
			if err := ctx.Err(); err != nil {
				return "", err
			}
			checked = pos
		}
		start := at[pos]
		if start > 0 && isWord(lastRune(s[:start])) {
			pos++ // not where a whole word starts
			continue
		}
		name, end := -1, 0
		n.t.walk(folded[pos:], func(i, l int) {
			if e := at[pos+l]; e == len(s) || !isWord(firstRune(s[e:])) {
				name, end = i, pos+l
			}
		})
		if name < 0 {
			pos++
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(with(n.given[name]))
		last, pos = at[end], end
	}
	if last == 0 {
		return s, nil
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// fold is s in lower case without diacritics, each run of spaces one space, and for
// each of its bytes (and its end) the offset in s of the character it comes from.
func fold(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	at := make([]int, 0, len(s)+1)
	space := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
				at = append(at, i)
			}
			space = true
			continue
		}
		space = false
		if r < utf8.RuneSelf {
			b.WriteByte(byte(unicode.ToLower(r)))
			at = append(at, i)
			continue
		}
		for _, d := range norm.NFD.String(string(r)) {
			if unicode.Is(unicode.Mn, d) {
				continue
			}
			l := string(unicode.ToLower(d))
			b.WriteString(l)
			for range len(l) {
				at = append(at, i)
			}
		}
	}
	return b.String(), append(at, len(s))
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}
