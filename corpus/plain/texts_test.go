package plain_test

import (
	"context"
	"testing"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/corpus/plain"
	"github.com/lexflow/lexflow/internal/testcorpus"
)

// TestWordsNameCorpusTexts checks every line against the shipped corpus: its doc_id is
// an article or a decision the corpus holds, and its language is the text's own or
// English. Words cannot be written for a text that is not there.
func TestWordsNameCorpusTexts(t *testing.T) {
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
	w, err := plain.Default()
	if err != nil {
		t.Fatal(err)
	}
	for id, langs := range w {
		own := ""
		if a, err := store.ArticleByID(ctx, id); err == nil {
			own = a.Language
		} else if text, err := store.LegalTextByID(ctx, id); err == nil {
			own = text.Decision.Language
		} else {
			t.Errorf("%s: %v", id, err)
			continue
		}
		for lang := range langs {
			if lang != own && lang != "en" {
				t.Errorf("%s: words in %s, neither its language (%s) nor English", id, lang, own)
			}
		}
	}
}
