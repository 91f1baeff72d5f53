package activities

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/legislatie"
	"github.com/lexflow/lexflow/schemas"
)

// portalFake is the Portal Legislativ on loopback, answering with the envelopes of
// internal/legislatie/testdata (see its README).
func portalFake(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := "search.xml"
		if strings.HasSuffix(r.Header.Get("SOAPAction"), `GetToken"`) {
			name = "gettoken.xml"
		}
		data, err := os.ReadFile("../internal/legislatie/testdata/" + name)
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCurrentLawOverlay: a refreshed act's articles are kept in the store, and
// read_legal_text and the citation check read them before the shipped corpus's,
// dated when they were read and labelled as published.
func TestCurrentLawOverlay(t *testing.T) {
	ctx := context.Background()
	read := time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
	law := &CurrentLaw{Corpus: lc, Store: st, Portal: legislatie.New(portalFake(t).URL, 5*time.Second), Now: func() time.Time { return read }}
	acts, err := law.RefreshableActs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(acts, "ro/legea-287-2009") || !slices.Contains(acts, "ro/oug-57-2019") || slices.Contains(acts, "ro/constitutia-1991") {
		t.Errorf("refreshable acts %v", acts)
	}
	if none, _ := (&CurrentLaw{Corpus: lc, Store: st}).RefreshableActs(ctx); len(none) != 0 {
		t.Errorf("without the portal: %v", none)
	}
	got, err := law.RefreshAct(ctx, schemas.RefreshAct{ActID: "ro/legea-287-2009"})
	if err != nil || got.Articles != 2 || !got.ReadAt.Equal(read) {
		t.Fatalf("RefreshAct = %+v, %v", got, err)
	}
	if _, err := law.RefreshAct(ctx, schemas.RefreshAct{ActID: "ro/constitutia-1991"}); err == nil {
		t.Error("the Constitution, which has no number, was refreshed")
	}

	shipped := &Research{Corpus: lc}
	current := &Research{Corpus: lc, Current: st}
	args := schemas.ReadLegalTextArgs{DocID: "ro/legea-287-2009/art-1357"}
	old, _ := shipped.ReadLegalText(ctx, args)
	now, err := current.ReadLegalText(ctx, args)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(old.Text, "cu intenție sau din culpă") || old.Version != "" {
		t.Errorf("the shipped text: %+v", old)
	}
	if !strings.Contains(now.Text, "săvârșită cu vinovăție") || now.AsOf != "2026-11-27" ||
		!strings.Contains(now.Version, "legislatie.just.ro, as published") || now.URL != "http://legislatie.just.ro/Public/DetaliiDocument/109884" {
		t.Errorf("the current text: %+v", now)
	}

	raw, err := current.NormattivaSearch(ctx, schemas.NormattivaSearchArgs{ActType: "Codul civil", Article: "1357"})
	if err != nil || !strings.Contains(string(raw), "săvârșită cu vinovăție") {
		t.Errorf("normattiva_search with current texts: %s, %v", raw, err)
	}

	reply := "Codul civil, la art. 1357, prevede: „Cel care cauzează altuia un prejudiciu printr-o faptă ilicită, săvârșită cu vinovăție, este obligat să îl repare”."
	for _, c := range []struct {
		r          *Research
		status, at string
	}{{shipped, corpus.StatusMisquoted, "2009-07-24"}, {current, corpus.StatusVerified, "2026-11-27"}} {
		res, err := c.r.CheckText(ctx, schemas.CitationCheck{Text: reply, Language: "ro"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Citations) != 1 || res.Citations[0].Status != c.status || res.Citations[0].AsOf != c.at {
			t.Errorf("with current texts %v: %+v", c.r.Current != nil, res.Citations)
		}
	}
}
