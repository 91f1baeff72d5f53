package corpus

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/corpus/dense"
)

// TestGlossaryTakesEnglishToRomanianAndItalianLaw: the glossary's legal terms lift the
// article an English question asks for into the first five, above where the question's
// own words (and the articles' plain English words) rank it.
func TestGlossaryTakesEnglishToRomanianAndItalianLaw(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ q, jur, want string }{
		{"the seller hid a defect in the car he sold me", "ro", "ro/legea-287-2009/art-1707"},
		{"withdrawal from an online purchase", "it", "it/dlgs-206-2005/art-52"},
		{"someone stole my bike", "it", "it/rd-1398-1930/art-624"},
	} {
		off, err := db.SearchLegislationWith(ctx, c.q, c.jur, "", MaxArticleHits, Layers{})
		if err != nil {
			t.Fatal(err)
		}
		on, err := db.SearchLegislationWith(ctx, c.q, c.jur, "", MaxArticleHits, Layers{Glossary: true})
		if err != nil {
			t.Fatal(err)
		}
		if r := rankOf(docIDs(on), c.want); r == 0 || r > 5 || !better(r, rankOf(docIDs(off), c.want)) {
			t.Errorf("%q in %s: without the glossary %v, with it %v; want %s in the first five, higher with it", c.q, c.jur, docIDs(off), docIDs(on), c.want)
		}
	}
}

// TestGlossaryTakesEnglishToDecisions: the glossary's legal terms rank first the
// decision an English question asks for, above where the question's own words (and
// the decisions' plain English words) rank it.
func TestGlossaryTakesEnglishToDecisions(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ q, want string }{
		{"extortion and the notion of financial damage", "it/cass/30016-2024"},
		{"bribery of a judge", "it/cass/40822-2025"}, // istigazione alla corruzione
	} {
		off, err := db.SearchDecisionsWith(ctx, c.q, DecisionScope{}, 20, DecisionLayers{})
		if err != nil {
			t.Fatal(err)
		}
		on, err := db.SearchDecisionsWith(ctx, c.q, DecisionScope{}, 20, DecisionLayers{Glossary: true})
		if err != nil {
			t.Fatal(err)
		}
		if r := rankOf(decisionIDs(on), c.want); r == 0 || r > 2 || !better(r, rankOf(decisionIDs(off), c.want)) {
			t.Errorf("%q: without the glossary %v, with it %v; want %s in the first two, higher with it", c.q, decisionIDs(off), decisionIDs(on), c.want)
		}
	}
}

// rankOf is where want stands in ids, from 1; 0 when it is not there.
func rankOf(ids []string, want string) int { return slices.Index(ids, want) + 1 }

// better reports whether rank a is above rank b, 0 being no rank.
func better(a, b int) bool { return a != 0 && (b == 0 || a < b) }

func decisionIDs(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.DocID)
	}
	return out
}

func TestRewriteLayerRanksTheModelsWords(t *testing.T) {
	ctx := context.Background()
	q := "qqzx vvqy" // no word of any index: only the rewrite ranks
	hits, err := db.SearchLegislationWith(ctx, q, "it", "", 5, Layers{Rewrites: map[string]string{"it": "diritto di ritenzione"}})
	if err != nil {
		t.Fatal(err)
	}
	named := slices.ContainsFunc(hits, func(h ArticleHit) bool { return strings.Contains(strings.ToLower(h.Title+h.Text), "ritenzione") })
	if !named {
		t.Fatalf("rewrite to \"diritto di ritenzione\" ranked %v, none naming it", docIDs(hits))
	}
	if alone, err := db.SearchLegislationWith(ctx, q, "it", "", 5, Layers{}); err != nil || len(alone) != 0 {
		t.Errorf("the question alone found %v (%v): the rewrite's hits are not its own", docIDs(alone), err)
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
	q := "qqzx vvqy" // no word of any index: only the dense layer ranks
	hits, err := db.SearchLegislationWith(ctx, q, "ro", "", 5, Layers{Dense: ix, QueryVector: []float32{1, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(docIDs(hits), []string{"ro/legea-287-2009/art-1376"}) {
		t.Fatalf("dense layer in ro found %v, want only the Romanian article", docIDs(hits))
	}
}
