package glossary_test

import (
	"context"
	"testing"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/corpus/glossary"
	"github.com/lexflow/lexflow/internal/testcorpus"
)

// TestSourcesUseTheirTerms checks every source against the shipped corpus: the article
// exists, and its heading or text uses one of the concept's legal terms in the article's
// own language. A source cannot be invented.
func TestSourcesUseTheirTerms(t *testing.T) {
	ctx := context.Background()
	path, err := testcorpus.Path(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store, err := corpus.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, c := range load(t).Concepts() {
		for _, id := range c.Sources {
			a, err := store.ArticleByID(ctx, id)
			if err != nil {
				t.Errorf("%s: source %s: %v", c.ID, id, err)
				continue
			}
			used := false
			for _, term := range c.Legal[glossary.Lang(a.Language)] {
				used = used || glossary.Mentions(a.Title+"\n"+a.Text, term)
			}
			if !used {
				t.Errorf("%s: %s uses none of %q", c.ID, id, c.Legal[glossary.Lang(a.Language)])
			}
		}
	}
}
