package corpus

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestArticleReferencesAreVerified: the reference read_legal_text gives an article of
// each act the corpus holds, followed by a quotation of the article's first words, is
// a citation the check verifies as that very article.
func TestArticleReferencesAreVerified(t *testing.T) {
	ctx := context.Background()
	rows, err := db.db.QueryContext(ctx, `SELECT MIN(l.doc_id), a.language FROM legislatie l JOIN acts a
		ON l.doc_id LIKE a.act_id || '/art-%' WHERE l.in_force = 1 AND l.text != '' GROUP BY a.act_id`)
	if err != nil {
		t.Fatal(err)
	}
	var ids, langs []string
	for rows.Next() {
		var id, lang string
		if err := rows.Scan(&id, &lang); err != nil {
			t.Fatal(err)
		}
		ids, langs = append(ids, id), append(langs, lang)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if len(ids) < 15 {
		t.Fatalf("only %d acts", len(ids))
	}
	for i, id := range ids {
		lt, err := db.LegalTextByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if lt.Kind != KindArticle || lt.AsOf == "" || lt.URL == "" || !lt.InForce {
			t.Errorf("%s: %+v", id, lt)
		}
		words := strings.Fields(lt.Text)
		quote := strings.Trim(strings.Join(words[:min(8, len(words))], " "), ",;:")
		text := "Vedi " + lt.Reference + ": «" + quote + "»."
		cits, err := db.CheckCitations(ctx, text, langs[i])
		if err != nil {
			t.Fatal(err)
		}
		if len(cits) != 1 || cits[0].DocID != id || cits[0].Status != StatusVerified {
			t.Errorf("%q (%s):\n%s", text, id, describeCitations(cits))
		}
	}
}

func TestLegalTextByID(t *testing.T) {
	ctx := context.Background()
	lt, err := db.LegalTextByID(ctx, "it/cass/10387-2025")
	if err != nil {
		t.Fatal(err)
	}
	if lt.Kind != KindDecision || lt.Decision.Number == "" || lt.AsOf == "" || !strings.Contains(lt.Text, lt.Decision.Massima) ||
		strings.Count(lt.Text, lt.Decision.Massima) != 1 {
		t.Errorf("%+v", lt)
	}
	for _, id := range []string{"it/rd-262-1942/art-99999", "it/cass/0-1900", "", "it/rd-262-1942"} {
		if _, err := db.LegalTextByID(ctx, id); !errors.Is(err, ErrNoDocument) {
			t.Errorf("%q: %v, want ErrNoDocument", id, err)
		}
	}
}

// TestPages: pages hold at most their size, end at a paragraph where one is near, and
// together hold the whole text.
func TestPages(t *testing.T) {
	para := strings.Repeat("Parola ", 120) // 840 characters
	text := strings.Repeat(para+"\n\n", 40) + strings.Repeat("ț", 5000)
	pages := Pages(text, 3000)
	if len(pages) < 10 {
		t.Fatalf("%d pages", len(pages))
	}
	var joined strings.Builder
	for i, p := range pages {
		if n := utf8.RuneCountInString(p); n > 3000 {
			t.Errorf("page %d has %d characters", i+1, n)
		}
		if i < 3 && !strings.HasSuffix(p, "Parola") {
			t.Errorf("page %d ends mid-paragraph: %q", i+1, p[len(p)-20:])
		}
		joined.WriteString(strings.Join(strings.Fields(p), ""))
	}
	if joined.String() != strings.Join(strings.Fields(text), "") {
		t.Error("the pages do not hold the whole text")
	}
	if got := Pages("", 10); len(got) != 1 || got[0] != "" {
		t.Errorf("an empty text gives %q", got)
	}
}
