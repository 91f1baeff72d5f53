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

// MissingPartyMessage is the message shown when a draft refers to a party that is not
// attached to its case.
func MissingPartyMessage(party string) string {
	return "Placeholder substitution failed: Party ID " + party + " not found or not attached to case"
}

// braces matches anything in double braces, placeholder or not.
var braces = regexp.MustCompile(`\{\{[^{}]*\}\}`)

// Malformed returns the double-braced texts of markdown that are not placeholders
// ({{Party0.name}}, {{party0.first-name}}), which would otherwise print as they are.
func Malformed(markdown string) []string {
	var out []string
	for _, m := range braces.FindAllString(markdown, -1) {
		if !placeholder.MatchString(m) {
			out = append(out, m)
		}
	}
	return out
}

// Substitute replaces every placeholder in markdown with the value that value gives for
// it; the caller checks first that every placeholder has one. Values are escaped so that
// they print literally: a name containing `*`, `_`, `|`, `#` or `[` neither formats text
// nor breaks a table, and runs of spaces and line breaks become one space. (Inside a
// code span or code block the escapes would show, so drafts keep placeholders out of
// code.)
func Substitute(markdown string, value func(Ref) string) string {
	return placeholder.ReplaceAllStringFunc(markdown, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		return escape(value(Ref{Party: sub[1], Field: sub[2]}))
	})
}

// escape backslash-escapes every ASCII punctuation character of v (CommonMark lets any
// of them be escaped, and GFM tables read `\|` as a literal bar) and collapses its white
// space, so that it can neither start a code block nor end in a hard line break.
func escape(v string) string {
	var b strings.Builder
	for _, r := range strings.Join(strings.Fields(v), " ") {
		if strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
