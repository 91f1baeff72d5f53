package draft

import (
	"regexp"
	"strings"
)

// Ref names one party field that a draft refers to with a placeholder such as
// {{party0.lastName}}.
type Ref struct {
	Party string // "party0"
	Field string // "lastName"
}

// placeholder matches {{partyN.field}}, allowing spaces inside the braces.
var placeholder = regexp.MustCompile(`\{\{\s*(party[0-9]+)\.([A-Za-z0-9_]+)\s*\}\}`)

// Placeholders returns the party fields that markdown refers to, in order of first
// appearance and without duplicates.
func Placeholders(markdown string) []Ref {
	var refs []Ref
	seen := map[Ref]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(markdown, -1) {
		ref := Ref{Party: m[1], Field: m[2]}
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	return refs
}

// MissingPartyError reports a placeholder whose party is not attached to the case.
type MissingPartyError struct {
	Party string
}

// Error returns MissingPartyMessage(e.Party).
func (e *MissingPartyError) Error() string { return MissingPartyMessage(e.Party) }

// MissingPartyMessage is the message shown when a draft refers to a party that is not
// attached to its case.
func MissingPartyMessage(party string) string {
	return "Placeholder substitution failed: Party ID " + party + " not found or not attached to case"
}

// Substitute replaces every placeholder in markdown with the value that value gives for
// it. Values are escaped so that they print literally: a name containing `*`, `_`, `|`,
// `#` or `[` neither formats text nor breaks a table, and line breaks become spaces.
// (Inside a code span or code block the escapes would show, so drafts keep placeholders
// out of code.) If value reports false for a ref, Substitute returns a
// *MissingPartyError for its party.
func Substitute(markdown string, value func(Ref) (string, bool)) (string, error) {
	var err error
	out := placeholder.ReplaceAllStringFunc(markdown, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		ref := Ref{Party: sub[1], Field: sub[2]}
		v, ok := value(ref)
		if !ok {
			if err == nil {
				err = &MissingPartyError{Party: ref.Party}
			}
			return m
		}
		return escape(v)
	})
	if err != nil {
		return "", err
	}
	return out, nil
}

// escape backslash-escapes every ASCII punctuation character of v (CommonMark lets any
// of them be escaped, and GFM tables read `\|` as a literal bar) and turns line breaks
// into spaces.
func escape(v string) string {
	var b strings.Builder
	for _, r := range v {
		switch {
		case r == '\r' || r == '\n':
			b.WriteByte(' ')
		case strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
