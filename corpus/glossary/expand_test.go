package glossary_test

import (
	"slices"
	"testing"

	"github.com/lexflow/lexflow/corpus/glossary"
)

func texts(ts []glossary.Term) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Text)
	}
	return out
}

func TestExpandReachesTheTargetLanguage(t *testing.T) {
	g := load(t)
	got := g.Expand("my neighbour flooded my flat", []glossary.Lang{glossary.RO}, 0)
	if !slices.Contains(texts(got), "prejudiciul cauzat de lucruri") {
		t.Errorf("Expand = %v, want the Romanian term for damage caused by things", texts(got))
	}
	for _, term := range got {
		if term.Lang != glossary.RO {
			t.Errorf("%q is %s, want only Romanian", term.Text, term.Lang)
		}
		if term.Weight <= 0 || term.Weight >= 1 {
			t.Errorf("%q weighs %v, want below the query's own words (1)", term.Text, term.Weight)
		}
	}
	it := g.Expand("il mio padrone di casa tiene la caparra dell'affitto", []glossary.Lang{glossary.RO}, 0)
	for _, want := range []string{"locator", "garanție"} {
		if !slices.Contains(texts(it), want) {
			t.Errorf("Italian words expanded to %v, want %q among them", texts(it), want)
		}
	}
}

func TestExpandIsBoundedAndFair(t *testing.T) {
	g := load(t)
	q := "landlord tenant lease deposit eviction sublet repairs"
	all := g.Expand(q, glossary.Langs, 100)
	got := g.Expand(q, glossary.Langs, 5)
	if len(got) != 5 || len(all) <= 5 {
		t.Fatalf("bounded to 5: %d terms (unbounded %d)", len(got), len(all))
	}
	concepts := map[string]bool{}
	for _, term := range got {
		concepts[term.Concept] = true
	}
	if len(concepts) != 5 {
		t.Errorf("5 terms from %d concepts, want one from each of the first five: %v", len(concepts), got)
	}
	if n := len(g.Expand(q, glossary.Langs, 0)); n != glossary.MaxTerms {
		t.Errorf("default bound gave %d terms, want %d", n, glossary.MaxTerms)
	}
}

func TestExpandSkipsWhatTheQueryAlreadySays(t *testing.T) {
	g := load(t)
	for _, term := range g.Expand("contratto di locazione e canone", []glossary.Lang{glossary.IT}, 0) {
		if term.Text == "contratto di locazione" || term.Text == "canone" {
			t.Errorf("Expand added %q, which the query already has", term.Text)
		}
	}
	if got := g.Expand("what is the weather today", glossary.Langs, 0); len(got) != 0 {
		t.Errorf("a question naming no concept expanded to %v", texts(got))
	}
}

func TestLangsOf(t *testing.T) {
	for j, want := range map[string][]glossary.Lang{
		"ro": {glossary.RO}, "it": {glossary.IT}, "eu": glossary.Langs, "": glossary.Langs,
	} {
		if got := glossary.LangsOf(j); !slices.Equal(got, want) {
			t.Errorf("LangsOf(%q) = %v, want %v", j, got, want)
		}
	}
}
