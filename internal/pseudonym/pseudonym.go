// Package pseudonym turns a document's text into the text the models may read: the
// case's parties become the {{partyN.field}} placeholders drafts are written with,
// and other personal data found by its form (internal/pii) becomes a {{doc.kind.N}}
// marker, the same value the same marker throughout the text.
package pseudonym

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/lexflow/lexflow/internal/pii"
)

// Party is what pseudonymizing reads of one of a case's parties: its ID (the
// placeholders' partyN) and the values that name or identify it. Callers fill it from
// the party as they keep it (store.Party).
type Party struct {
	ID          string
	FirstName   string
	LastName    string
	CompanyName string
	Aliases     []string
	CNP         string
	CUI         string
	Address     string
	Email       string
}

// Text returns s pseudonymized for a case whose parties are parties (their IDs are the
// placeholders' partyN). A party's values are found whole, whatever their case,
// diacritics and spacing (pii.Names); where two values are the same, the first
// party's, and the longer value, win: "Ion Popescu" is the full name, not the last
// name after a first name.
func Text(s string, parties []Party) string {
	out, _ := For(parties).Text(context.Background(), s)
	return out
}

// Mask returns s with every value of the parties replaced by with, and nothing else
// changed (no markers): what an erased case's parties leave in a text kept after it.
func Mask(ctx context.Context, s string, parties []Party, with string) (string, error) {
	return For(parties).names.Replace(ctx, s, func(string) string { return with })
}

// Pages is For(parties).Pages.
func Pages(ctx context.Context, pages []string, parties []Party) ([]string, error) {
	return For(parties).Pages(ctx, pages)
}

// Pseudonymizer pseudonymizes texts for one set of parties; For builds it once for a
// set and keeps it.
type Pseudonymizer struct {
	names pii.Names
	// field is each value's placeholder, by the value as pii.Names answers it.
	field map[string]string
}

// newPseudonymizer builds the names of parties' values and their placeholders.
func newPseudonymizer(parties []Party) *Pseudonymizer {
	var names []string
	field := map[string]string{}
	add := func(p Party, name, value string) {
		value = strings.Join(strings.Fields(value), " ")
		if value == "" {
			return
		}
		if _, ok := field[value]; !ok {
			field[value] = "{{" + p.ID + "." + name + "}}"
		}
		names = append(names, value)
	}
	for _, p := range parties {
		if p.FirstName != "" && p.LastName != "" {
			add(p, "fullName", p.FirstName+" "+p.LastName)
			add(p, "fullName", p.LastName+" "+p.FirstName) // "POPESCU Ion", as deeds write it
		}
		add(p, "companyName", p.CompanyName)
		add(p, "lastName", p.LastName)
		add(p, "firstName", p.FirstName)
		for _, a := range p.Aliases {
			add(p, "name", a)
		}
		add(p, "cnp", p.CNP)
		add(p, "cui", p.CUI)
		add(p, "address", p.Address)
		add(p, "email", p.Email)
	}
	return &Pseudonymizer{names: pii.NewNames(names...), field: field}
}

// Text returns s pseudonymized (see the package function Text). It stops with ctx's
// error once ctx is done.
func (p *Pseudonymizer) Text(ctx context.Context, s string) (string, error) {
	s, err := p.names.Replace(ctx, s, func(name string) string { return p.field[name] })
	if err != nil {
		return "", err
	}
	return markers(ctx, s)
}

// pageBreak joins a document's pages for Pages: no name and no pattern of personal
// data spans a NUL, so each page comes back whole.
const pageBreak = "\n\x00\n"

// Pages is Text over a document's pages at once, so that a value has the same marker
// on every page; the pages come back in their order, any NUL they held removed.
func (p *Pseudonymizer) Pages(ctx context.Context, pages []string) ([]string, error) {
	clean := make([]string, len(pages))
	for i, pg := range pages {
		clean[i] = strings.ReplaceAll(pg, "\x00", "")
	}
	if len(pages) == 0 {
		return clean, nil
	}
	s, err := p.Text(ctx, strings.Join(clean, pageBreak))
	if err != nil {
		return nil, err
	}
	return strings.Split(s, pageBreak), nil
}

// markers replaces the personal data pii.Find finds in s by {{doc.kind.N}}, N counted
// per kind in the order the values first appear, from one past the highest such marker
// s holds already (a document's text that was pseudonymized before it was quoted), so
// that two values never share a marker.
func markers(ctx context.Context, s string) (string, error) {
	found, err := pii.FindContext(ctx, s)
	switch {
	case err != nil:
		return "", err
	case len(found) == 0:
		return s, nil
	}
	seen := map[string]string{}
	count := map[pii.Kind]int{}
	for _, m := range markerRe.FindAllStringSubmatch(s, -1) {
		if n, err := strconv.Atoi(m[2]); err == nil && n > count[pii.Kind(m[1])] {
			count[pii.Kind(m[1])] = n
		}
	}
	var b strings.Builder
	last := 0
	for _, m := range found {
		key := string(m.Kind) + ":" + normal(s[m.Start:m.End])
		marker, ok := seen[key]
		if !ok {
			count[m.Kind]++
			marker = fmt.Sprintf("{{doc.%s.%d}}", m.Kind, count[m.Kind])
			seen[key] = marker
		}
		b.WriteString(s[last:m.Start])
		b.WriteString(marker)
		last = m.End
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// markerRe finds the markers markers writes.
var markerRe = regexp.MustCompile(`\{\{doc\.([a-z_]+)\.(\d{1,9})\}\}`)

// normal is a value as it is compared: in capitals, without the spaces, dots, dashes
// and brackets it may be written with.
func normal(v string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(" .-()\n\t", r) {
			return -1
		}
		return r
	}, strings.ToUpper(v))
}
