package corpus

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/corpus/dense"
)

func TestGlossaryTakesEnglishToRomanianAndItalianLaw(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ q, jur, want string }{
		{"the water from the flat above damaged my ceiling", "ro", "ro/legea-287-2009/art-1376"},
		{"the water from the flat above damaged my ceiling", "it", "it/rd-262-1942/art-2051"},
		{"someone stole my bike", "it", "it/rd-1398-1930/art-624"},
	} {
		off, err := db.SearchLegislationWith(ctx, c.q, c.jur, "", 5, Layers{})
		if err != nil {
			t.Fatal(err)
		}
		on, err := db.SearchLegislationWith(ctx, c.q, c.jur, "", 5, Layers{Glossary: true})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(docIDs(off), c.want) || !slices.Contains(docIDs(on), c.want) {
			t.Errorf("%q in %s: without the glossary %v, with it %v; want %s found only with it", c.q, c.jur, docIDs(off), docIDs(on), c.want)
		}
	}
}

func TestGlossaryTakesEnglishToDecisions(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ q, want string }{
		{"fraudulent bankruptcy", "it/cass/7277-2026"},
		{"theft from a petrol station", "it/cass/13132-2025"},
		{"defamation in court filings", "it/cass/20520-2024"},
	} {
		off, err := db.SearchDecisionsWith(ctx, c.q, "", 5, DecisionLayers{})
		if err != nil {
			t.Fatal(err)
		}
		on, err := db.SearchDecisionsWith(ctx, c.q, "", 5, DecisionLayers{Glossary: true})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(decisionIDs(off), c.want) || len(on) == 0 || on[0].DocID != c.want {
			t.Errorf("%q: without the glossary %v, with it %v; want %s first only with it", c.q, decisionIDs(off), decisionIDs(on), c.want)
		}
	}
}

func decisionIDs(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.DocID)
	}
	return out
}

func TestRewriteLayerRanksTheModelsWords(t *testing.T) {
	ctx := context.Background()
	q := "my neighbour keeps my things"
	hits, err := db.SearchLegislationWith(ctx, q, "it", "", 5, Layers{Rewrites: map[string]string{"it": "diritto di ritenzione"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || !strings.Contains(strings.ToLower(hits[0].Title+hits[0].Text), "ritenzione") {
		t.Fatalf("rewrite to \"diritto di ritenzione\" ranked %v first", docIDs(hits))
	}
	if ro, err := db.SearchLegislationWith(ctx, q, "it", "", 5, Layers{Rewrites: map[string]string{"ro": "dreptul de retenție"}}); err != nil || len(ro) != 0 {
		t.Errorf("a Romanian rewrite reached Italian law: %v (%v)", docIDs(ro), err)
	}
}

// fixedDocs serves the corpus's documents whose IDs are listed, in order.
type fixedDocs struct {
	s   *Store
	ids []string
}

func (f fixedDocs) DocsAfter(ctx context.Context, after string, n int) ([]dense.Doc, error) {
	var out []dense.Doc
	for _, id := range f.ids {
		if id > after && len(out) < n {
			a, err := f.s.ArticleByID(ctx, id)
			if err != nil {
				return nil, err
			}
			out = append(out, dense.Doc{ID: id, Text: a.Title + "\n" + a.Text})
		}
	}
	return out, nil
}

// vectorEmbedder answers one fixed vector per text, by a word it contains.
type vectorEmbedder map[string][]float32

func (v vectorEmbedder) Embed(_ context.Context, texts []string) ([][]float32, int64, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{0, 0, 1}
		for w, vec := range v {
			if strings.Contains(strings.ToLower(t), w) {
				out[i] = vec
			}
		}
	}
	return out, 0, nil
}

func TestDenseLayerJoinsByFusionWithinTheJurisdiction(t *testing.T) {
	ctx := context.Background()
	ids := []string{"it/rd-262-1942/art-2051", "ro/legea-287-2009/art-1376"}
	emb := vectorEmbedder{"custodia": {1, 0, 0}, "lucruri": {0.9, 0.1, 0}}
	ix, err := dense.Build(ctx, t.TempDir()+"/v", "m", "s", fixedDocs{db, ids}, emb, dense.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	q := "a question sharing no word with either"
	hits, err := db.SearchLegislationWith(ctx, q, "ro", "", 5, Layers{Dense: ix, QueryVector: []float32{1, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(docIDs(hits), []string{"ro/legea-287-2009/art-1376"}) {
		t.Fatalf("dense layer in ro found %v, want only the Romanian article", docIDs(hits))
	}
}
