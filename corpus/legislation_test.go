package corpus

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func docIDs(hits []ArticleHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.DocID
	}
	return out
}

// TestSearchLegislation ranks articles by a question in a client's words, with or
// without Romanian diacritics, within a jurisdiction and an act.
func TestSearchLegislation(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ query, jurisdiction, act, want string }{
		{"locatarul nu plătește chiria la termen", "ro", "", "ro/legea-287-2009/art-1797"},
		{"locatarul nu plateste chiria la termen", "ro", "", "ro/legea-287-2009/art-1797"},
		{"danno cagionato da animali", "it", "", "it/rd-262-1942/art-2052"},
		{"notification of a personal data breach", "all", "", "eu/32016R0679/en/art-33"},
		{"dreptul la ștergerea datelor", "eu", "GDPR", "eu/32016R0679/ro/art-17"},
		{"obligațiile locatorului", "ro", "Codul civil", "ro/legea-287-2009/art-1786"},
	} {
		hits, err := db.SearchLegislation(ctx, c.query, c.jurisdiction, c.act, 5)
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		if !slices.Contains(docIDs(hits), c.want) {
			t.Errorf("%q in %s: %v, want %s among them", c.query, c.jurisdiction, docIDs(hits), c.want)
		}
		for _, h := range hits {
			if c.jurisdiction != "all" && h.Jurisdiction != c.jurisdiction {
				t.Errorf("%q: %s is outside %s", c.query, h.DocID, c.jurisdiction)
			}
			if c.act != "" && !strings.HasPrefix(h.DocID, hits[0].DocID[:strings.LastIndex(hits[0].DocID, "/")]) {
				t.Errorf("%q: %s is outside the act %s", c.query, h.DocID, c.act)
			}
			if h.AsOf == "" || h.URL == "" {
				t.Errorf("%s: no as_of or URL: %+v", h.DocID, h)
			}
		}
	}
	if hits, err := db.SearchLegislation(ctx, "obligațiile locatorului", "ro", "", 50); err != nil || len(hits) != MaxArticleHits {
		t.Errorf("limit 50: %d hits, %v; want %d", len(hits), err, MaxArticleHits)
	}
	if hits, _ := db.SearchLegislation(ctx, "locatar", "ro", "Codul civil", 3); len(hits) == 0 || hits[0].AsOf != "2009-07-24" {
		t.Errorf("the Codul civil's as_of: %+v", hits)
	}
	if _, err := db.SearchLegislation(ctx, "chirie", "fr", "", 5); !errors.Is(err, ErrJurisdiction) {
		t.Errorf("jurisdiction fr: %v", err)
	}
	if _, err := db.SearchLegislation(ctx, "chirie", "ro", "Codul nimic", 5); !errors.Is(err, ErrNoAct) {
		t.Errorf("unknown act: %v", err)
	}
	if hits, err := db.SearchLegislation(ctx, "și în care", "ro", "", 5); err != nil || len(hits) != 0 {
		t.Errorf("stop words only: %v, %v", docIDs(hits), err)
	}
}

// TestPlainWordsTakeEnglishToTheLaw: with no layer on, an English question about
// Romanian or Italian law meets the article through its plain English words (package
// plain), and only within the jurisdiction asked, keywords with no stop word too; an
// English question about every jurisdiction reaches national law too; a Romanian
// keyword query is not read as English for the few words English shares with it.
func TestPlainWordsTakeEnglishToTheLaw(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ q, jur, want string }{
		{"my neighbour's dog bit me", "ro", "ro/legea-287-2009/art-1375"},
		{"my neighbour's dog bit me", "all", "ro/legea-287-2009/art-1375"},
		{"my neighbour's dog bit me", "it", "it/rd-262-1942/art-2052"},
		{"dog bite neighbour compensation", "ro", "ro/legea-287-2009/art-1375"}, // no stop word tells its language
	} {
		hits, err := db.SearchLegislation(ctx, c.q, c.jur, "", 5)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(docIDs(hits), c.want) {
			t.Errorf("%q in %s: %v, want %s in the first five", c.q, c.jur, docIDs(hits), c.want)
		}
		for _, h := range hits {
			if c.jur != JurisdictionAll && h.Jurisdiction != c.jur {
				t.Errorf("%q in %s found %s, of %s", c.q, c.jur, h.DocID, h.Jurisdiction)
			}
		}
	}
	own, err := db.SearchLegislation(ctx, "contract vânzare", "ro", "", 5)
	if err != nil {
		t.Fatal(err)
	}
	law, err := db.languageWeights(ctx, "contract vânzare", []string{"ro"}, articleIndex)
	if err != nil {
		t.Fatal(err)
	}
	others, err := db.otherLanguages(ctx, "contract vânzare", []string{"ro"}, law)
	if err != nil || len(others) != 0 || len(own) == 0 {
		t.Errorf("a Romanian keyword query: read as %v (%v), found %v", others, err, docIDs(own))
	}
	hits, err := db.SearchLegislation(ctx, "my neighbour's dog bit me", "eu", "", 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Jurisdiction != "eu" {
			t.Errorf("within the EU's law, the English words of %s", h.DocID)
		}
	}
}

// TestPlainWordsTakeEnglishToDecisions: an English question meets an Italian
// decision through its plain English words, with no layer on.
func TestPlainWordsTakeEnglishToDecisions(t *testing.T) {
	hits, err := db.SearchDecisions(context.Background(), "fraudulent bankruptcy", DecisionScope{}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(decisionIDs(hits), "it/cass/7277-2026") {
		t.Errorf("fraudulent bankruptcy: %v, want it/cass/7277-2026 in the first five", decisionIDs(hits))
	}
}

// TestIndexesEndWithWords: both kinds of analysed index end with the words column,
// where a text's plain words in another language stand alone (fillAnalysed), and the
// decisions' weights name every column.
func TestIndexesEndWithWords(t *testing.T) {
	for kind, cols := range indexColumns {
		if !strings.HasSuffix(cols, ", words") {
			t.Errorf("%s's columns %q do not end with words", kind, cols)
		}
	}
	n := columnCount("jurisprudenta")
	if len(decisionSummaryWeights) != n || len(decisionTextWeights) != n {
		t.Errorf("decision weights %v and %v, for %d columns", decisionSummaryWeights, decisionTextWeights, n)
	}
}
