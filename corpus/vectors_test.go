package corpus

import (
	"context"
	"strings"
	"testing"
)

func TestDocsAfterPagesInOrder(t *testing.T) {
	ctx := context.Background()
	first, err := db.DocsAfter(ctx, "", 3)
	if err != nil || len(first) != 3 {
		t.Fatalf("DocsAfter(\"\", 3) = %d docs, %v", len(first), err)
	}
	next, err := db.DocsAfter(ctx, first[1].ID, 2)
	if err != nil || len(next) != 2 || next[0].ID != first[2].ID {
		t.Fatalf("the page after %s starts at %v, want %s", first[1].ID, next, first[2].ID)
	}
	if !(first[0].ID < first[1].ID && first[1].ID < first[2].ID) {
		t.Errorf("not in doc_id order: %s %s %s", first[0].ID, first[1].ID, first[2].ID)
	}
	a, err := db.ArticleByID(ctx, first[0].ID)
	if err != nil || !strings.Contains(first[0].Text, a.Title) || !strings.HasSuffix(first[0].Text, a.Text) {
		t.Errorf("doc text %q does not hold the article's heading and text (%v)", first[0].Text[:min(80, len(first[0].Text))], err)
	}
	if end, err := db.DocsAfter(ctx, "\U0010FFFF", 3); err != nil || len(end) != 0 {
		t.Errorf("past the last article: %d docs, %v", len(end), err)
	}
}
