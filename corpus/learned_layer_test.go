package corpus

import (
	"context"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/corpus/plain"
)

// TestLearnedTakesAClientToTheLaw: the learned model lifts to the first place the
// article a client's words ask for, which the other offline layers rank lower.
func TestLearnedTakesAClientToTheLaw(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ q, jur, want string }{
		{"a branch from next door's tree hangs over my yard and drops its fruit", "it", "it/rd-262-1942/art-896"},
		{"the builder's work is falling apart two years later", "it", "it/rd-262-1942/art-1667"},
	} {
		off, err := db.SearchLegislationWith(ctx, c.q, c.jur, "", MaxArticleHits, Layers{Glossary: true})
		if err != nil {
			t.Fatal(err)
		}
		on, err := db.SearchLegislationWith(ctx, c.q, c.jur, "", MaxArticleHits, Layers{Glossary: true, Learned: true})
		if err != nil {
			t.Fatal(err)
		}
		if r := rankOf(docIDs(on), c.want); r != 1 || !better(r, rankOf(docIDs(off), c.want)) {
			t.Errorf("%q in %s: without the learned model %v, with it %v; want %s first, higher with it", c.q, c.jur, docIDs(off), docIDs(on), c.want)
		}
	}
}

// TestLearnedPlacesTheArticlesWithWords: the model places the articles that have
// plain words, and only those, each read back with its doc_id and jurisdiction.
func TestLearnedPlacesTheArticlesWithWords(t *testing.T) {
	ix, err := db.learned(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	words, err := plain.Default()
	if err != nil {
		t.Fatal(err)
	}
	placed := ix.model.Placed()
	if len(placed) < 10000 {
		t.Fatalf("%d articles placed; the shipped corpus has more than 10,000 with plain words", len(placed))
	}
	for _, d := range placed {
		id := ix.docID[d]
		if len(words[id]) == 0 || !strings.HasPrefix(id, ix.jurisdiction[d]+"/") {
			t.Fatalf("article %d: %q in %q, with words %v", d, id, ix.jurisdiction[d], words[id])
		}
	}
}

// TestLearnedReadAgainAfterACancel: a read of the model cut short by its caller's
// context does not stay the store's answer.
func TestLearnedReadAgainAfterACancel(t *testing.T) {
	s, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.learned(cancelled); err == nil {
		t.Fatal("a read with a cancelled context succeeded")
	}
	if ix, err := s.learned(context.Background()); err != nil || len(ix.model.Placed()) == 0 {
		t.Errorf("the read after: %v", err)
	}
}

// TestLearnedKeepsToTheScope: the learned ranking adds only articles of the
// jurisdiction, and of the act when one is named.
func TestLearnedKeepsToTheScope(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ jur, act, prefix string }{
		{"ro", "", "ro/"},
		{"it", "", "it/"},
		{"ro", "Codul civil", "ro/legea-287-2009/"},
	} {
		scores := map[int64]float64{}
		sc, err := db.legislationScope(ctx, c.jur, c.act)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.rankLearned(ctx, scores, "my neighbour's dog bit my son", sc, 1); err != nil {
			t.Fatal(err)
		}
		if len(scores) != perLanguageDepth {
			t.Errorf("%s %q: %d articles ranked, want %d", c.jur, c.act, len(scores), perLanguageDepth)
		}
		ix, _ := db.learned(ctx)
		for id := range scores {
			if doc := ix.docID[int32(id-1)]; !strings.HasPrefix(doc, c.prefix) {
				t.Errorf("%s %q: ranked %s", c.jur, c.act, doc)
			}
		}
	}
	scores := map[int64]float64{}
	sc, err := db.legislationScope(ctx, "ro", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.rankLearned(ctx, scores, "zzqx qqzv", sc, 1); err != nil || len(scores) != 0 {
		t.Errorf("words the model never saw: %d ranked, %v", len(scores), err)
	}
}
