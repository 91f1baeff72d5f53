package activities

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexflow/lexflow/corpus/dense"
	"github.com/lexflow/lexflow/internal/fakeembed"
	"github.com/lexflow/lexflow/llm"
)

type oneDoc struct{}

func (oneDoc) DocsAfter(_ context.Context, after string, _ int) ([]dense.Doc, error) {
	if after != "" {
		return nil, nil
	}
	return []dense.Doc{{ID: "ro/legea-287-2009/art-1777", Text: "locațiunea"}}, nil
}

// denseLayer returns an embeddings server of 8 dimensions on loopback (fakeembed),
// closed with the test, an embedder calling it, and a dense index of oneDoc built
// through it.
func denseLayer(t *testing.T) (*fakeembed.Server, *llm.Embedder, *dense.Index) {
	t.Helper()
	srv := fakeembed.New(8)
	t.Cleanup(srv.Close)
	emb := llm.NewEmbedder(llm.Endpoint{BaseURL: srv.URL(), Model: "m", Timeout: 5 * time.Second})
	ix, err := dense.Build(t.Context(), filepath.Join(t.TempDir(), "v"), "m", "s", oneDoc{}, emb, dense.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return srv, emb, ix
}

func TestSearchLayersFor(t *testing.T) {
	ctx := context.Background()
	if l, err := (SearchLayers{}).For(ctx, "q", "ro"); err != nil || l.Glossary || l.Rewrites != nil || l.Dense != nil {
		t.Fatalf("zero layers gave %+v, %v", l, err)
	}
	var body string
	srv, emb, ix := denseLayer(t)
	s := SearchLayers{Glossary: true, Rewriter: &Rewriter{Model: chatServer(t, 200, `{"ro": "locator garanție"}`, &body)}, Dense: ix, Embedder: emb}
	l, err := s.For(ctx, "my landlord keeps my deposit", "ro")
	if err != nil || !l.Glossary || l.Rewrites["ro"] != "locator garanție" || l.Dense != ix || len(l.QueryVector) != 8 {
		t.Fatalf("For = %+v, %v", l, err)
	}
	srv.FailFrom(1) // the question's embedding fails: this search goes without dense retrieval
	if l, err := s.For(ctx, "q", "ro"); err != nil || l.Dense != nil || l.Rewrites == nil {
		t.Fatalf("with a failing embeddings endpoint: %+v, %v", l, err)
	}
}
