package storetest

import (
	"strconv"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// currentTextTests check store.CurrentTexts.
var currentTextTests = []subtest{
	{"PutReplacesAndReads", testCurrentArticles},
	{"ManyAtOnce", testCurrentArticlesMany},
}

func testCurrentArticles(t *testing.T, s store.Store) {
	act := "ro/" + newID("legea")
	id := act + "/art-1357"
	if _, ok, err := s.CurrentArticle(t.Context(), id); err != nil || ok {
		t.Fatalf("CurrentArticle of nothing stored = %v, %v", ok, err)
	}
	read := time.Now().UTC().Truncate(time.Millisecond)
	first := store.CurrentArticle{DocID: id, ActID: act, Text: "(1) Cel care cauzează altuia un prejudiciu…", URL: "http://legislatie.just.ro/Public/DetaliiDocument/1",
		Source: "legislatie.just.ro", ReadAt: read.Add(-time.Hour)}
	other := first
	other.DocID, other.Text = act+"/art-1349", "(1) Orice persoană…"
	if err := s.PutCurrentArticles(t.Context(), []store.CurrentArticle{first, other}); err != nil {
		t.Fatal(err)
	}
	second := first
	second.Text, second.ReadAt, second.Consolidated = "(1) Cel care cauzează altuia un prejudiciu printr-o faptă ilicită, săvârșită cu vinovăție…", read, true
	if err := s.PutCurrentArticles(t.Context(), []store.CurrentArticle{second}); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.CurrentArticle(t.Context(), id)
	if err != nil || !ok {
		t.Fatalf("CurrentArticle = %v, %v", ok, err)
	}
	if got.Text != second.Text || !got.ReadAt.Equal(read) || !got.Consolidated || got.ActID != act || got.URL != first.URL || got.Source != first.Source {
		t.Errorf("CurrentArticle = %+v, want %+v", got, second)
	}
	if got, ok, _ := s.CurrentArticle(t.Context(), other.DocID); !ok || got.Text != other.Text {
		t.Errorf("the other article = %+v, %v", got, ok)
	}
}

func testCurrentArticlesMany(t *testing.T, s store.Store) {
	act := "ro/" + newID("legea")
	arts := make([]store.CurrentArticle, 1200)
	for i := range arts {
		arts[i] = store.CurrentArticle{DocID: act + "/art-" + strconv.Itoa(i+1), ActID: act, Text: "text " + strconv.Itoa(i),
			Source: "legislatie.just.ro", ReadAt: time.Now().UTC()}
	}
	if err := s.PutCurrentArticles(t.Context(), arts); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 499, 500, 1199} {
		if got, ok, err := s.CurrentArticle(t.Context(), arts[i].DocID); err != nil || !ok || got.Text != arts[i].Text {
			t.Errorf("article %d = %+v, %v, %v", i, got, ok, err)
		}
	}
	if err := s.PutCurrentArticles(t.Context(), make([]store.CurrentArticle, store.MaxCurrentArticles+1)); err == nil {
		t.Error("more than MaxCurrentArticles were taken")
	}
}
