package glossary_test

import (
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/lexflow/lexflow/corpus/glossary"
)

func load(t *testing.T) *glossary.Glossary {
	t.Helper()
	g, err := glossary.Default()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// minConcepts is the size issue 38 asks for: several hundred concepts.
const minConcepts = 400

func TestEveryConceptHasEveryLanguageAndASource(t *testing.T) {
	g := load(t)
	if n := len(g.Concepts()); n < minConcepts {
		t.Errorf("%d concepts, want at least %d", n, minConcepts)
	}
	docID := regexp.MustCompile(`^(it|ro|eu)/[A-Za-z0-9-]+/([a-z]{2}/)?art-[0-9a-z^-]+$`)
	for _, c := range g.Concepts() {
		if c.ID == "" {
			t.Errorf("a concept has no ID: %+v", c)
		}
		for _, l := range glossary.Langs {
			if len(c.Legal[l]) == 0 {
				t.Errorf("%s: no legal term in %s", c.ID, l)
			}
		}
		if len(c.Sources) == 0 {
			t.Errorf("%s: no source", c.ID)
		}
		for _, s := range c.Sources {
			if !docID.MatchString(s) {
				t.Errorf("%s: source %q is not a corpus doc_id", c.ID, s)
			}
		}
	}
}

func TestNoDuplicates(t *testing.T) {
	g := load(t)
	ids := map[string]bool{}
	owner := map[string]string{} // language + folded term → concept
	for _, c := range g.Concepts() {
		if ids[c.ID] {
			t.Errorf("concept %s twice", c.ID)
		}
		ids[c.ID] = true
		for _, l := range glossary.Langs {
			for _, term := range append(append([]string{}, c.Legal[l]...), c.Words[l]...) {
				k := string(l) + ":" + strings.Join(strings.Fields(fold(term)), " ")
				if prev, ok := owner[k]; ok {
					t.Errorf("%s term %q in %s and %s", l, term, prev, c.ID)
				}
				owner[k] = c.ID
			}
		}
	}
}

// fold strips diacritics and lower-cases, to compare terms as the matcher does.
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		if r < 0x300 || r > 0x36f {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestTermsAreNormalised(t *testing.T) {
	g := load(t)
	for _, c := range g.Concepts() {
		for _, l := range glossary.Langs {
			for _, term := range append(append([]string{}, c.Legal[l]...), c.Words[l]...) {
				switch {
				case term != strings.Join(strings.Fields(term), " "):
					t.Errorf("%s: %q has stray spaces", c.ID, term)
				case term != strings.ToLower(term):
					t.Errorf("%s: %q is not lower case", c.ID, term)
				case !norm.NFC.IsNormalString(term):
					t.Errorf("%s: %q is not NFC", c.ID, term)
				case strings.ContainsAny(term, "şţŞŢ"):
					t.Errorf("%s: %q has cedilla ş/ţ, not comma-below ș/ț", c.ID, term)
				case strings.ContainsAny(term, ";\t\""):
					t.Errorf("%s: %q holds a separator", c.ID, term)
				}
			}
		}
	}
}

func TestParseRejectsAShortLine(t *testing.T) {
	if _, err := glossary.Parse("lease\tlease\trent\n"); err == nil {
		t.Fatal("a line of 3 fields parsed")
	}
	g, err := glossary.Parse("# comment\nx\ta\tb\tc\td\te\tf\tit/x/art-1\n")
	if err != nil || len(g.Concepts()) != 1 || g.Concepts()[0].Legal[glossary.RO][0] != "e" {
		t.Fatalf("Parse = %v, %v", g, err)
	}
}
