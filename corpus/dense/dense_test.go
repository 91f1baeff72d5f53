package dense_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/lexflow/lexflow/corpus/dense"
	"github.com/lexflow/lexflow/internal/fakeembed"
	"github.com/lexflow/lexflow/llm"
)

// memDocs pages through documents held in memory, in ID order.
type memDocs []dense.Doc

func (m memDocs) DocsAfter(_ context.Context, after string, n int) ([]dense.Doc, error) {
	i := sort.Search(len(m), func(i int) bool { return m[i].ID > after })
	return m[i:min(i+n, len(m))], nil
}

var docs = memDocs{
	{"a/1", "the lease of a flat and the landlord"},
	{"a/2", "theft of movable goods"},
	{"a/3", "the security deposit of a lease is returned at its end"},
	{"a/4", "dismissal of an employee"},
	{"a/5", "defamation and reputation"},
	{"a/6", "inheritance and the reserved share"},
	{"a/7", "personal data breach notification"},
	{"a/8", "limitation period of claims"},
	{"a/9", "divorce and custody of children"},
	{"b/1", "neighbour nuisance noise and smoke"},
}

const dim = 64

func embedder(srv *fakeembed.Server, model string) *llm.Embedder {
	return llm.NewEmbedder(llm.Endpoint{BaseURL: srv.URL(), Model: model, Timeout: 5 * time.Second})
}

func TestBuildSearchesAndResumes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "corpus.db.vectors")
	srv := fakeembed.New(dim)
	defer srv.Close()

	srv.FailFrom(3) // the third batch fails: two are kept
	if _, err := dense.Build(ctx, path, "m", "sum1", docs, embedder(srv, "m"), dense.BuildOptions{Batch: 3}); err == nil {
		t.Fatal("Build succeeded with a failing endpoint")
	}
	ix, err := dense.Open(path, "m", "sum1")
	if err != nil || ix.Len() != 6 {
		t.Fatalf("after the failure the file holds %d documents (%v), want 6", ix.Len(), err)
	}

	srv.FailFrom(0)
	_, before := srv.Counts()
	ix, err = dense.Build(ctx, path, "m", "sum1", docs, embedder(srv, "m"), dense.BuildOptions{Batch: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, after := srv.Counts(); after-before != 4 || ix.Len() != 10 {
		t.Fatalf("resumed build embedded %d documents and holds %d, want 4 and 10", after-before, ix.Len())
	}

	q, _, err := embedder(srv, "m").Embed(ctx, []string{"lease deposit returned"})
	if err != nil {
		t.Fatal(err)
	}
	hits := ix.Search(q[0], 2)
	if len(hits) != 2 || hits[0].DocID != "a/3" || hits[0].Score < hits[1].Score {
		t.Fatalf("Search = %v, want a/3 first", hits)
	}
	if got := ix.Search(q[0][:dim-1], 2); got != nil {
		t.Errorf("a vector of another length found %v", got)
	}
}

func TestBuildDropsARecordCutShort(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v")
	srv := fakeembed.New(dim)
	defer srv.Close()
	if _, err := dense.Build(ctx, path, "m", "s", docs, embedder(srv, "m"), dense.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()-3); err != nil { // a crash mid-record
		t.Fatal(err)
	}
	if ix, _ := dense.Open(path, "m", "s"); ix.Len() != 9 {
		t.Fatalf("a file cut short reads %d documents, want 9", ix.Len())
	}
	_, before := srv.Counts()
	ix, err := dense.Build(ctx, path, "m", "s", docs, embedder(srv, "m"), dense.BuildOptions{})
	if _, after := srv.Counts(); err != nil || ix.Len() != 10 || after-before != 1 {
		t.Fatalf("rebuild: %v, %d documents, %d embedded; want 10 and 1", err, ix.Len(), after-before)
	}
	if st2, _ := os.Stat(path); st2.Size() != st.Size() {
		t.Errorf("file is %d bytes after the repair, want %d", st2.Size(), st.Size())
	}
}

func TestAnotherModelOrCorpusStartsAfresh(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v")
	srv := fakeembed.New(dim)
	defer srv.Close()
	if _, err := dense.Build(ctx, path, "m1", "s", docs, embedder(srv, "m1"), dense.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ model, corpus string }{{"m2", "s"}, {"m1", "s2"}} {
		if ix, _ := dense.Open(path, c.model, c.corpus); ix.Len() != 0 {
			t.Errorf("%s/%s read %d documents kept for m1/s", c.model, c.corpus, ix.Len())
		}
	}
	ix, err := dense.Build(ctx, path, "m2", "s", docs, embedder(srv, "m2"), dense.BuildOptions{})
	if err != nil || ix.Len() != 10 {
		t.Fatalf("Build for m2: %v, %d documents", err, ix.Len())
	}
	if ix, _ := dense.Open(path, "m2", "s"); ix.Len() != 10 {
		t.Errorf("reopened m2 index holds %d documents", ix.Len())
	}
}
