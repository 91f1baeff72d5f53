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

func TestSearchLayersFor(t *testing.T) {
	ctx := context.Background()
	if l, err := (SearchLayers{}).For(ctx, "q", "ro"); err != nil || l.Glossary || l.Rewrites != nil || l.Dense != nil {
		t.Fatalf("zero layers gave %+v, %v", l, err)
	}
	var body string
	srv := fakeembed.New(8)
	defer srv.Close()
	emb := llm.NewEmbedder(llm.Endpoint{BaseURL: srv.URL(), Model: "m", Timeout: 5 * time.Second})
	ix, err := dense.Build(ctx, filepath.Join(t.TempDir(), "v"), "m", "s", oneDoc{}, emb, dense.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
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
