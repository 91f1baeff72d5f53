package pseudonym

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
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
	got, err := Pages(context.Background(), []string{"tel. 0722 123 456, Ștefan", "Țurcanu\x00 plătește; tel. 0722123456"}, parties)
	want := []string{"tel. {{doc.phone.1}}, {{party0.firstName}}", "{{party0.lastName}} plătește; tel. {{doc.phone.1}}"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %q, %v\nwant %q", got, err, want)
	}
	if got, _ := Pages(context.Background(), nil, parties); len(got) != 0 {
		t.Errorf("no pages: %q", got)
	}
}

// word is a made-up lower-case word of 4 to 9 letters.
func word(r *rand.Rand) string {
	b := make([]byte, 4+r.IntN(6))
	for i := range b {
		b[i] = byte('a' + r.IntN(26))
	}
	return string(b)
}

// manyParties are n parties of three names and two aliases each, and a text of about
// size bytes of words with some of their names in it.
func manyParties(n, size int) ([]Party, string) {
	r := rand.New(rand.NewPCG(uint64(n), uint64(size)))
	ps := make([]Party, n)
	for i := range ps {
		ps[i] = Party{ID: fmt.Sprintf("party%d", i), FirstName: word(r), LastName: word(r), CompanyName: word(r) + " SRL",
			Aliases: []string{word(r), word(r) + " " + word(r)}, Address: "Str. " + word(r) + " nr. 3"}
	}
	var b strings.Builder
	for b.Len() < size {
		if r.IntN(20) == 0 {
			p := ps[r.IntN(n)]
			b.WriteString(strings.ToUpper(p.FirstName+" "+p.LastName) + ", ")
			continue
		}
		b.WriteString(word(r) + " ")
	}
	return ps, b.String()
}

// BenchmarkPseudonymize (issue 36, finding 2) times twice the parties over twice the
// text, and reports each run's cost per KB: the names are one trie walked from each
// word's start, not an alternation tried at every character, so the cost per KB stays
// about the same (`go test -run '^$' -bench Pseudonymize ./internal/pseudonym/`).
func BenchmarkPseudonymize(b *testing.B) {
	for _, c := range []struct{ parties, size int }{{100, 40 << 10}, {200, 80 << 10}} {
		b.Run(fmt.Sprintf("%d parties over %d KB", c.parties, c.size>>10), func(b *testing.B) {
			ps, text := manyParties(c.parties, c.size)
			p := newPseudonymizer(ps)
			for b.Loop() {
				if _, err := p.Text(context.Background(), text); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.size>>10), "ns/KB")
		})
	}
}

// TestAttackPseudonymizeStops (issue 36, finding 2): a pseudonymization whose context
// ends stops with its error instead of reading the rest of the text.
func TestAttackPseudonymizeStops(t *testing.T) {
	ps, text := manyParties(50, 1<<20)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Pages(ctx, []string{text}, ps); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled pseudonymization answered %v", err)
	}
}

// TestForKeepsPartySets: the same parties are built once; other parties, or the same
// ones changed, are another set.
func TestForKeepsPartySets(t *testing.T) {
	if For(parties) != For(slices.Clone(parties)) {
		t.Error("the same parties were built twice")
	}
	changed := slices.Clone(parties)
	changed[2].FirstName = "Mara"
	if For(parties) == For(changed) {
		t.Error("changed parties share the first set's names")
	}
	if got := Text("Mara Țurcanu", changed); got != "{{party2.fullName}}" {
		t.Errorf("the changed set answered %q", got)
	}
}

// A text that quotes an already pseudonymized document (a model call that holds a
// read_document result) numbers its own values past the document's markers: two CNPs
// never share {{doc.cnp.1}}.
func TestMarkersCountPastThoseInTheText(t *testing.T) {
	quoted := "The document says {{doc.cnp.1}} signed. My own CNP is 1800101221144."
	got := Text(quoted, nil)
	if want := "The document says {{doc.cnp.1}} signed. My own CNP is {{doc.cnp.2}}."; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

// TestMask writes every value of the parties out of a text, whatever its form in the
// text, and leaves the rest, other personal data included, as it was.
func TestMask(t *testing.T) {
	got, err := Mask(t.Context(), "Fane (ȘTEFAN ȚURCANU) owes Locuințe Bune SRL; write to ana@example.ro", parties, "[…]")
	if want := "[…] ([…]) owes […]; write to ana@example.ro"; err != nil || got != want {
		t.Errorf("Mask = %q, %v; want %q", got, err, want)
	}
}
