package activities

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/searxng"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
)

// enrichedSearx answers as SearXNG does, with results that cite an article in force, a
// repealed one and one that does not exist.
func enrichedSearx(t *testing.T) *searxng.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"query":"q","results":[
 {"url":"https://www.brocardi.it/codice-civile/art2043.html","title":"Art. 2043 c.c. - Risarcimento","content":"Il fatto illecito (art. 2043 c.c.) obbliga al risarcimento.","engine":"bing"},
 {"url":"https://www.altalex.com/x","title":"Maggiore età","content":"Sulla capacità, vedi l'art. 3 c.c. e l'art. 9999 c.c.","engine":"bing"},
 {"url":"https://www.altalex.com/y","title":"Notizie","content":"Nessun riferimento.","engine":"bing"}]}`))
	}))
	t.Cleanup(srv.Close)
	return searxng.New(srv.URL, 5*time.Second)
}

func TestLexSearchEnriched(t *testing.T) {
	ctx := context.Background()
	lib, _ := prompts.Load("")
	srv, err := offline.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(ctx) })
	reasoner := llm.New(llm.Endpoint{BaseURL: srv.BaseURL, Model: offline.ModelName, Timeout: 5 * time.Second})
	web := &Web{SearXNG: enrichedSearx(t)}

	// Without a reasoner: shape B, each result with its references' status.
	out, err := (&Enriched{Web: web, Corpus: lc, Prompts: &SystemPrompts{Library: lib, Versions: st}}).LexSearchEnriched(ctx, schemas.LexSearchEnrichedArgs{Query: "fatto illecito", Language: "it"})
	b, ok := out.(schemas.EnrichedResults)
	if err != nil || !ok || len(b.Results) != 3 {
		t.Fatalf("shape B: %+v, %v", out, err)
	}
	for i, want := range []string{vigente, abrogato, ""} {
		if b.Results[i].Vigenza != want {
			t.Errorf("result %d vigenza %q, want %q", i, b.Results[i].Vigenza, want)
		}
	}
	if len(b.References) != 3 || !strings.Contains(b.EnrichedResults, "art. 9999 c.c.: non verificato") {
		t.Errorf("references %+v\n%s", b.References, b.EnrichedResults)
	}

	// With the reasoner: shape A, its analysis and the references.
	out, err = (&Enriched{Web: web, Corpus: lc, Reasoner: reasoner, Prompts: &SystemPrompts{Library: lib, Versions: st}}).LexSearchEnriched(ctx, schemas.LexSearchEnrichedArgs{Query: "fatto illecito", Language: "it"})
	a, ok := out.(schemas.EnrichedAnalysis)
	if err != nil || !ok {
		t.Fatalf("shape A: %+v, %v", out, err)
	}
	for _, want := range []string{"Analisi offline di «fatto illecito»: 3 fonti da leggere", "Art. 2043 c.c.: vigente", "art. 3 c.c.: abrogato"} {
		if !strings.Contains(a.Analysis, want) {
			t.Errorf("analysis lacks %q:\n%s", want, a.Analysis)
		}
	}
}
