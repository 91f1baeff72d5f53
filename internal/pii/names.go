package pii

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Names masks known names (a case's parties, their aliases and addresses) wherever
// they stand as whole words, whatever their case and diacritics and however the
// spaces between their words are written: "Stefan" and "ŞTEFAN" (with a cedilla) are
// "Ștefan", and "Ion\nPopescu" and "Ion\u00a0Popescu" (a no-break space) are "Ion
// Popescu".
type Names struct {
	re *regexp.Regexp
	// byFold is each name as NewNames was given it (its spaces made single), by its
	// folded form; the first given wins.
	byFold map[string]string
}

// NewNames returns a masker of names; blank ones and single letters are left out.
// Longer names are tried first, so that "Ion Popescu" is masked whole rather than as
// two names.
func NewNames(names ...string) Names {
	var quoted []string
	byFold := map[string]string{}
	for _, n := range names {
		if n = strings.Join(strings.Fields(n), " "); utf8.RuneCountInString(n) > 1 {
			f, _ := fold(n)
			if _, ok := byFold[f]; ok {
				continue
			}
			byFold[f] = n
			quoted = append(quoted, strings.ReplaceAll(regexp.QuoteMeta(f), " ", `[\s\p{Zs}]+`))
		}
	}
	if len(quoted) == 0 {
		return Names{}
	}
	slices.SortFunc(quoted, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return Names{re: regexp.MustCompile(strings.Join(quoted, "|")), byFold: byFold}
}

// Mask returns s with each known name that stands as a whole word replaced by with.
func (n Names) Mask(s, with string) string {
	return n.Replace(s, func(string) string { return with })
}

// Replace returns s with each known name that stands as a whole word replaced by what
// with returns for it: the name as NewNames was given it.
func (n Names) Replace(s string, with func(name string) string) string {
	if n.re == nil {
		return s
	}
	folded, at := fold(s)
	var b strings.Builder
	last := 0
	for pos := 0; pos < len(folded); {
		loc := n.re.FindStringIndex(folded[pos:])
		if loc == nil {
			break
		}
		start, end := at[pos+loc[0]], at[pos+loc[1]]
		if !wordAt(s, start, end) {
			// A name inside a longer word ("ana" in "Diana"): the search goes on
			// from the next character, where a name may start ("Diana Ionescu").
			_, size := utf8.DecodeRuneInString(folded[pos+loc[0]:])
			pos += loc[0] + size
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(with(n.byFold[strings.Join(strings.Fields(folded[pos+loc[0]:pos+loc[1]]), " ")]))
		last, pos = end, pos+loc[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// fold is s in lower case without diacritics, and for each of its bytes (and its
// end) the offset in s of the character it comes from.
func fold(s string) (string, []int) {
	var b strings.Builder
	at := make([]int, 0, len(s)+1)
	for i, r := range s {
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

// wordAt reports whether s[start:end] is not part of a longer word.
func wordAt(s string, start, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:start])
	after, _ := utf8.DecodeRuneInString(s[end:])
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	return (start == 0 || !isWord(before)) && (end == len(s) || !isWord(after))
}
