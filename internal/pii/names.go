package pii

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names masks known names (a case's parties, their aliases and addresses) wherever
// they stand as whole words, whatever their case.
type Names struct {
	re *regexp.Regexp
}

// NewNames returns a masker of names; blank ones and single letters are left out.
// Longer names are tried first, so that "Ion Popescu" is masked whole rather than as
// two names.
func NewNames(names ...string) Names {
	var quoted []string
	for _, n := range names {
		if n = strings.Join(strings.Fields(n), " "); utf8.RuneCountInString(n) > 1 {
			quoted = append(quoted, regexp.QuoteMeta(n))
		}
	}
	if len(quoted) == 0 {
		return Names{}
	}
	slices.SortFunc(quoted, func(a, b string) int { return len(b) - len(a) })
	return Names{re: regexp.MustCompile(`(?i)` + strings.Join(quoted, "|"))}
}

// Mask returns s with each known name that stands as a whole word replaced by with.
func (n Names) Mask(s, with string) string {
	if n.re == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range n.re.FindAllStringIndex(s, -1) {
		if !wordAt(s, loc[0], loc[1]) {
			continue
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(with)
		last = loc[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// wordAt reports whether s[start:end] is not part of a longer word.
func wordAt(s string, start, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:start])
	after, _ := utf8.DecodeRuneInString(s[end:])
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	return (start == 0 || !isWord(before)) && (end == len(s) || !isWord(after))
}
