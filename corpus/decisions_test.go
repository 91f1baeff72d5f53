package corpus

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestDecisionScope: every ranking, analysed or not, keeps to the scope's
// jurisdiction and subject matter, and refuses a jurisdiction the corpus has no
// courts for.
func TestDecisionScope(t *testing.T) {
	ctx := context.Background()
	const q = "appeal against a sentence: appello, sentenza, apel, sentința"
	search := map[string]func(DecisionScope) ([]Hit, error){
		"analysed":   func(sc DecisionScope) ([]Hit, error) { return db.SearchDecisions(ctx, q, sc, 100) },
		"unanalysed": func(sc DecisionScope) ([]Hit, error) { return db.SearchDecisionsUnanalysed(ctx, q, sc, 100) },
		"glossary": func(sc DecisionScope) ([]Hit, error) {
			return db.SearchDecisionsWith(ctx, q, sc, 100, DecisionLayers{Glossary: true})
		},
	}
	for name, s := range search {
		all, err := s(DecisionScope{Jurisdiction: JurisdictionAll})
		if err != nil || !hasJurisdictions(all, "ro", "it") {
			t.Fatalf("%s, all courts: %v, %v; want both countries' decisions (pick another question)", name, decisionIDs(all), err)
		}
		for _, sc := range []DecisionScope{{Jurisdiction: "ro"}, {Jurisdiction: "it"}, {Jurisdiction: "ro", Materia: "achizi"}} {
			hits, err := s(sc)
			if err != nil || len(hits) == 0 {
				t.Fatalf("%s, %+v: %v, %v", name, sc, decisionIDs(hits), err)
			}
			for _, h := range hits {
				if h.Jurisdiction != sc.Jurisdiction || !strings.Contains(Fold(h.Materia), sc.Materia) {
					t.Errorf("%s, %+v: %s (%s, %q)", name, sc, h.DocID, h.Jurisdiction, h.Materia)
				}
			}
		}
		if _, err := s(DecisionScope{Jurisdiction: "eu"}); !errors.Is(err, ErrDecisionJurisdiction) {
			t.Errorf("%s within eu: %v, want ErrDecisionJurisdiction", name, err)
		}
	}
}

// hasJurisdictions reports whether hits hold a decision of each of js.
func hasJurisdictions(hits []Hit, js ...string) bool {
	seen := map[string]bool{}
	for _, h := range hits {
		seen[h.Jurisdiction] = true
	}
	for _, j := range js {
		if !seen[j] {
			return false
		}
	}
	return true
}
