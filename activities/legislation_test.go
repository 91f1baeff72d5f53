package activities

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

// TestLegislationSearch answers articles for a question in a client's words, with
// their reference, doc_id, as_of, status and URL; top_k is capped; an act the corpus
// does not hold is a note naming the acts it holds, not a failure.
func TestLegislationSearch(t *testing.T) {
	ctx := context.Background()
	a := &Research{Corpus: lc}
	search := func(args schemas.LegislationSearchArgs) schemas.LegislationSearchResult {
		t.Helper()
		out, err := a.LegislationSearch(ctx, args)
		var res schemas.LegislationSearchResult
		if err != nil || json.Unmarshal(out, &res) != nil {
			t.Fatalf("%+v: %s, %v", args, out, err)
		}
		return res
	}
	res := search(schemas.LegislationSearchArgs{Query: "chi risponde del danno cagionato da animali?", Jurisdiction: "it"})
	if len(res.Results) != 5 || res.Language != "it" || res.Meta.Source != schemas.ToolLegislationSearch {
		t.Fatalf("it: %+v", res)
	}
	first := res.Results[0]
	if first.DocID != "it/rd-262-1942/art-2052" || first.Reference != "Codice Civile, art. 2052" || first.AsOf == "" ||
		!first.InForce || !strings.HasPrefix(first.URL, "https://") || first.Excerpt == "" || first.Jurisdiction != "it" {
		t.Errorf("first hit: %+v", first)
	}
	if res := search(schemas.LegislationSearchArgs{Query: "obligațiile locatorului", Jurisdiction: "ro", TopK: 50}); len(res.Results) != 20 {
		t.Errorf("top_k 50: %d results", len(res.Results))
	}
	res = search(schemas.LegislationSearchArgs{Query: "chiria", Jurisdiction: "ro", Act: "Codul nimicului"})
	if len(res.Results) != 0 || !strings.Contains(res.Note, "Codul civil") {
		t.Errorf("unknown act: %+v", res)
	}
}

// TestLegislationSearchChecksBeforeSpending: a request for a jurisdiction or an act
// the corpus does not have is answered with a note before the layers that cost run,
// so it calls neither the model's rewrite nor the embeddings endpoint; a valid one
// calls both.
func TestLegislationSearchChecksBeforeSpending(t *testing.T) {
	ctx := context.Background()
	srv, emb, ix := denseLayer(t)
	var body string
	a := &Research{Corpus: lc, Layers: SearchLayers{Glossary: true, Rewriter: &Rewriter{Model: chatServer(t, 200, `{"ro": "chirie"}`, &body)},
		Dense: ix, Embedder: emb}}
	for _, args := range []schemas.LegislationSearchArgs{
		{Query: "chiria", Jurisdiction: "fr"},
		{Query: "chiria", Jurisdiction: "ro", Act: "Codul nimicului"},
	} {
		before, _ := srv.Counts()
		out, err := a.LegislationSearch(ctx, args)
		var res schemas.LegislationSearchResult
		if err != nil || json.Unmarshal(out, &res) != nil || len(res.Results) != 0 || res.Note == "" {
			t.Fatalf("%+v: %s, %v; want no results and a note", args, out, err)
		}
		if after, _ := srv.Counts(); after != before || body != "" {
			t.Errorf("%+v spent: %d embedding requests, rewrite request %q", args, after-before, body)
		}
	}
	before, _ := srv.Counts()
	if _, err := a.LegislationSearch(ctx, schemas.LegislationSearchArgs{Query: "chiria", Jurisdiction: "ro"}); err != nil {
		t.Fatal(err)
	}
	if after, _ := srv.Counts(); after != before+1 || body == "" {
		t.Errorf("a valid request: %d embedding requests, rewrite request %q; want one of each", after-before, body)
	}
}

// TestRetrieveFindsTheGoverningArticle is POST /v1/query's retrieval of a question
// that cites nothing: legislation_search's articles come among its sources.
func TestRetrieveFindsTheGoverningArticle(t *testing.T) {
	a := &Research{Corpus: lc}
	sources, err := a.Retrieve(context.Background(), schemas.Retrieval{
		Question: "Il cane del vicino ha morso mio figlio: chi risponde del danno cagionato dall'animale?", Language: "it", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range sources {
		found = found || (s.Tool == schemas.ToolLegislationSearch && s.DocID == "it/rd-262-1942/art-2052" && s.Reference == "Codice Civile, art. 2052")
	}
	if !found {
		t.Errorf("sources lack art. 2052 c.c. from legislation_search: %+v", sources)
	}
}
