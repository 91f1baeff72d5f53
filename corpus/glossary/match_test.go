package glossary_test

import (
	"testing"

	"github.com/lexflow/lexflow/corpus/glossary"
)

func TestMentionsAllowsInflectionAndEitherDiacritic(t *testing.T) {
	for _, c := range []struct {
		text, term string
		want       bool
	}{
		{"Contractul de locaţiune se încheie", "locațiune", true}, // cedilla text, comma-below term
		{"durata locațiunii", "locațiune", true},
		{"le riparazioni a carico del locatore", "riparazione", true},
		{"furtul calificat", "furt", true},
		{"insulele și prundișurile", "insultă", false},
		{"the lessee shall", "lease", false},
		{"", "lease", false},
		{"violul", "viol", true},
		{"atti di violenza", "viol", false}, // a short stem takes a short tail only
	} {
		if got := glossary.Mentions(c.text, c.term); got != c.want {
			t.Errorf("Mentions(%q, %q) = %v, want %v", c.text, c.term, got, c.want)
		}
	}
}

func TestFindTakesTheLongestTerm(t *testing.T) {
	g := load(t)
	ms := g.Find("Can I use my right of withdrawal for a sofa bought online?")
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.Concept.ID)
	}
	if len(ids) != 2 || ids[0] != "consumer_withdrawal" || ids[1] != "distance_contract" {
		t.Fatalf("Find = %v, want [consumer_withdrawal distance_contract]", ids)
	}
}

func TestFindReadsEachLanguage(t *testing.T) {
	g := load(t)
	for q, want := range map[string]string{
		"my neighbour flooded my flat":                "flooding_from_above",
		"il padrone di casa non mi restituisce":       "landlord",
		"proprietarul apartamentului nu îmi dă banii": "landlord",
		"chiriaşul nu plăteşte":                       "tenant", // cedilla, inflected
		"sono stato licenziato":                       "dismissal",
		"m-a concediat fără motiv după trei ani":      "dismissal",
		"they leaked my data":                         "data_breach",
		"what time is it in rome":                     "",
	} {
		ms := g.Find(q)
		got := ""
		if len(ms) > 0 {
			got = ms[0].Concept.ID
		}
		if got != want {
			t.Errorf("Find(%q) first = %q, want %q", q, got, want)
		}
	}
}
