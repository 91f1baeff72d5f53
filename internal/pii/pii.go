// Package pii finds personal data written in a text by its form: Romanian personal
// numbers (CNP) and Italian tax codes (codice fiscale) with their check digits, IBANs
// with theirs, e-mail addresses and Romanian and Italian phone numbers. Names and
// addresses have no such form; callers that know them (a case's parties) mask them
// themselves.
package pii

import (
	"context"
	"regexp"
	"slices"
	"strings"
)

// Kind is what a match is.
type Kind string

// The kinds of personal data Find recognizes.
const (
	CNP           Kind = "cnp"
	CodiceFiscale Kind = "codice_fiscale"
	IBAN          Kind = "iban"
	Email         Kind = "email"
	Phone         Kind = "phone"
)

// Match is one piece of personal data at s[Start:End].
type Match struct {
	Kind       Kind
	Start, End int
}

// finder recognizes one kind: candidates by pattern, kept when valid says so.
type finder struct {
	kind  Kind
	re    *regexp.Regexp
	valid func(string) bool
}

// finders are tried in this order; an earlier kind's match wins where two overlap (a
// CNP's 13 digits are not also read as a phone number).
var finders = []finder{
	{Email, regexp.MustCompile(`(?i)\b[a-z0-9._%+\-]+@[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,}\b`), nil},
	{IBAN, regexp.MustCompile(`(?i)\b[a-z]{2}\d{2}(?:[ ]?[a-z0-9]{4}){2,7}(?:[ ]?[a-z0-9]{1,4})?\b`), validIBAN},
	{CNP, regexp.MustCompile(`\b[1-9]\d{12}\b`), validCNP},
	{CodiceFiscale, regexp.MustCompile(`(?i)\b[a-z]{6}[0-9lmnpqrstuv]{2}[abcdehlmprst][0-9lmnpqrstuv]{2}[a-z][0-9lmnpqrstuv]{3}[a-z]\b`), validCodiceFiscale},
	{Phone, regexp.MustCompile(`(?:\+|\b00)(?:40|39)[ .\-]?\(?\d{1,4}\)?(?:[ .\-]?\d{2,4}){2,4}\b|\b0\d{1,3}(?:[ .\-]?\d{2,4}){2,3}\b|\b3\d{2}(?:[ .\-]?\d{3,4}){2}\b`), validPhone},
}

// Find returns the personal data in s, in order and not overlapping.
func Find(s string) []Match {
	out, _ := FindContext(context.Background(), s)
	return out
}

// FindContext is Find that stops with ctx's error once ctx is done, looking at it
// before each kind's pass over s.
func FindContext(ctx context.Context, s string) ([]Match, error) {
	var out []Match
	for _, f := range finders {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for pos := 0; pos < len(s); {
			loc := f.re.FindStringIndex(s[pos:])
			if loc == nil {
				break
			}
			m := Match{Kind: f.kind, Start: pos + loc[0], End: pos + loc[1]}
			if f.valid != nil {
				m.End = m.Start + validPrefix(s[m.Start:m.End], f.valid)
			}
			pos += loc[1]
			if m.End == m.Start {
				continue
			}
			// A candidate cut back to its valid part leaves the rest to be searched
			// (a second IBAN after a space).
			pos = min(pos, m.End)
			if !overlaps(out, m) {
				out = append(out, m)
			}
		}
	}
	slices.SortFunc(out, func(a, b Match) int { return a.Start - b.Start })
	return out, nil
}

// validPrefix is the length of the longest prefix of the candidate, cut at a space,
// that valid accepts, or 0: a spaced IBAN's pattern also takes the word after it.
func validPrefix(cand string, valid func(string) bool) int {
	for {
		if valid(cand) {
			return len(cand)
		}
		i := strings.LastIndexByte(cand, ' ')
		if i < 0 {
			return 0
		}
		cand = strings.TrimRight(cand[:i], " .-")
	}
}

func overlaps(ms []Match, m Match) bool {
	return slices.ContainsFunc(ms, func(o Match) bool { return o.Start < m.End && m.Start < o.End })
}

// Mask returns s with each piece of personal data replaced by its kind in brackets,
// "[iban]".
func Mask(s string) string {
	ms := Find(s)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m.Start])
		b.WriteString("[" + string(m.Kind) + "]")
		last = m.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// digitsOf is s without its spaces, dots, dashes, brackets and plus sign.
func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(" .-()+", r) {
			return -1
		}
		return r
	}, s)
}

// date is a day.month.year (or with / or -) with perhaps a time after it, which
// the phone pattern would otherwise take for a number.
var date = regexp.MustCompile(`^\d{2}[./\-]\d{2}[./\-]\d{4}`)

// validPhone keeps numbers of a plausible length: 10 to 15 digits with the country
// prefix, 9 to 11 without (Romanian numbers have 10, Italian ones mostly 9 to 11).
func validPhone(s string) bool {
	d := digitsOf(s)
	if date.MatchString(s) {
		return false
	}
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "00") {
		return len(d) >= 10 && len(d) <= 15
	}
	return len(d) >= 9 && len(d) <= 11
}
