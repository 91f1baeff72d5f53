package pseudonym

import (
	"slices"
	"strings"
	"testing"
)

var parties = []Party{
	{ID: "party0", FirstName: "Ștefan", LastName: "Țurcanu", Aliases: []string{"Fane"}, CNP: "1800101221144",
		Address: "Str. Lungă nr. 3, Iași", Email: "stefan.turcanu@example.ro"},
	{ID: "party1", CompanyName: "Locuințe Bune SRL", CUI: "RO16341004"},
	{ID: "party2", FirstName: "Maria", LastName: "Țurcanu"},
}

func TestText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a party's values, as written in a deed",
			"Subsemnatul ȚURCANU ȘTEFAN, CNP 1800101221144, domiciliat în str. Lungă nr. 3,\nIași, e-mail Stefan.Turcanu@example.ro, zis Fane",
			"Subsemnatul {{party0.fullName}}, CNP {{party0.cnp}}, domiciliat în {{party0.address}}, e-mail {{party0.email}}, zis {{party0.name}}"},
		{"without diacritics, the full name first",
			"Stefan Turcanu si Maria Turcanu; Turcanu semneaza",
			"{{party0.fullName}} si {{party2.fullName}}; {{party0.lastName}} semneaza"},
		{"a company and its code",
			"Locatar: LOCUINTE BUNE SRL (CUI RO16341004)",
			"Locatar: {{party1.companyName}} (CUI {{party1.cui}})"},
		{"other personal data, numbered by kind, the same value the same marker",
			"IBAN RO49 AAAA 1B31 0075 9384 0000, tel. 0722 123 456, again RO49AAAA1B31007593840000; mario.rossi@example.it; CF RSSMRA85T10A562S; CNP 2850101400019",
			"IBAN {{doc.iban.1}}, tel. {{doc.phone.1}}, again {{doc.iban.1}}; {{doc.email.1}}; CF {{doc.codice_fiscale.1}}; CNP {{doc.cnp.1}}"},
		{"a name inside a longer word stays",
			"Mariana a semnat", "Mariana a semnat"},
	} {
		if got := Text(tc.in, parties); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestTextLeavesNoValue: no value of a party survives, whatever the text around it.
func TestTextLeavesNoValue(t *testing.T) {
	var b strings.Builder
	for _, p := range parties {
		for _, v := range []string{p.FirstName, p.LastName, p.CompanyName, p.CNP, p.CUI, p.Address, p.Email} {
			if v != "" {
				b.WriteString("(" + strings.ToUpper(v) + ") ")
			}
		}
	}
	got := Text(b.String(), parties)
	for _, p := range parties {
		for _, v := range []string{p.FirstName, p.LastName, p.CompanyName, p.CNP, p.CUI, p.Address, p.Email} {
			if v != "" && strings.Contains(strings.ToUpper(got), strings.ToUpper(v)) {
				t.Errorf("%q survives in %q", v, got)
			}
		}
	}
}

// TestPages: a value has one marker across pages, and the pages stay apart even
// where a name runs to a page's end.
func TestPages(t *testing.T) {
	got := Pages([]string{"tel. 0722 123 456, Ștefan", "Țurcanu\x00 plătește; tel. 0722123456"}, parties)
	want := []string{"tel. {{doc.phone.1}}, {{party0.firstName}}", "{{party0.lastName}} plătește; tel. {{doc.phone.1}}"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := Pages(nil, parties); len(got) != 0 {
		t.Errorf("no pages: %q", got)
	}
}
