// Package reidentify undoes internal/pseudonym for the client: the {{partyN.field}}
// placeholders a model writes become the party's values again, in the text the client
// reads (a reply, its streamed pieces, what the model wrote into case_details). The
// {{doc.kind.N}} markers of personal data found by its form stay as they are: the
// value each stands for is not kept.
package reidentify

import (
	"regexp"
	"strings"

	"github.com/lexflow/lexflow/internal/pseudonym"
)

// placeholder matches {{partyN.field}}, allowing spaces inside the braces, as drafts
// are written (internal/draft).
var placeholder = regexp.MustCompile(`\{\{\s*(party[0-9]+)\.([A-Za-z0-9_]+)\s*\}\}`)

// fields are the values a placeholder's field names, as drafts fill them in.
var fields = map[string]func(pseudonym.Party) string{
	"firstName":   func(p pseudonym.Party) string { return p.FirstName },
	"lastName":    func(p pseudonym.Party) string { return p.LastName },
	"fullName":    func(p pseudonym.Party) string { return strings.TrimSpace(p.FirstName + " " + p.LastName) },
	"companyName": func(p pseudonym.Party) string { return p.CompanyName },
	"name": func(p pseudonym.Party) string {
		if p.CompanyName != "" {
			return p.CompanyName
		}
		return strings.TrimSpace(p.FirstName + " " + p.LastName)
	},
	"cnp":     func(p pseudonym.Party) string { return p.CNP },
	"cui":     func(p pseudonym.Party) string { return p.CUI },
	"address": func(p pseudonym.Party) string { return p.Address },
	"email":   func(p pseudonym.Party) string { return p.Email },
}

// Text returns s with each placeholder of one of parties replaced by the party's value.
// A placeholder of no such party, of an unknown field or of an empty value stays as
// the model wrote it.
func Text(s string, parties []pseudonym.Party) string {
	if len(parties) == 0 || !strings.Contains(s, "{{") {
		return s
	}
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		field, ok := fields[sub[2]]
		if !ok {
			return m
		}
		for _, p := range parties {
			if p.ID == sub[1] {
				if v := field(p); v != "" {
					return v
				}
				return m
			}
		}
		return m
	})
}

// Value returns v with every string in it, at any depth of maps and slices as JSON
// decodes them, passed through Text; v itself is not changed.
func Value(v any, parties []pseudonym.Party) any {
	switch v := v.(type) {
	case string:
		return Text(v, parties)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = Value(x, parties)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = Value(x, parties)
		}
		return out
	}
	return v
}
