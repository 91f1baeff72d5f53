package searxng

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// sample is SearXNG's JSON answer, as /search?format=json returns it (trimmed).
const sample = `{"query": "diritto all'oblio", "number_of_results": 0,
 "results": [
  {"url": "https://www.altalex.com/documents/news/2024/oblio", "title": "Diritto all'oblio: la Cassazione", "content": "La Suprema Corte ha confermato...", "engine": "duckduckgo", "engines": ["duckduckgo"], "positions": [1], "score": 1.0, "category": "general", "parsed_url": ["https", "www.altalex.com", "/documents/news/2024/oblio", "", "", ""]},
  {"url": "https://example.com/blog/oblio", "title": "Un blog", "content": "Opinioni", "engine": "bing", "engines": ["bing"], "positions": [2], "score": 0.5, "category": "general"},
  {"url": "https://eur-lex.europa.eu/legal-content/IT/TXT/?uri=CELEX:32016R0679", "title": "Regolamento (UE) 2016/679", "content": "Articolo 17", "engine": "google", "engines": ["google"], "positions": [3], "score": 0.4, "category": "general"},
  {"url": "https://notnormattiva.it.evil.com/x", "title": "Impostor", "content": "", "engine": "bing"}
 ],
 "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": []}`

func TestSearch(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Query().Get("q") + "|" + r.URL.Query().Get("format") + "|" + r.URL.Query().Get("language")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(sample))
	}))
	defer srv.Close()
	res, err := New(srv.URL+"/", 5*time.Second).Search(context.Background(), "diritto all'oblio", "it")
	if err != nil || len(res) != 4 || res[0].Title != "Diritto all'oblio: la Cassazione" {
		t.Fatalf("search: %+v, %v", res, err)
	}
	if got != "diritto all'oblio|json|it" {
		t.Errorf("request q|format|language = %q", got)
	}
	legal := OnLegalSites(res)
	if len(legal) != 2 || legal[1].URL != "https://eur-lex.europa.eu/legal-content/IT/TXT/?uri=CELEX:32016R0679" {
		t.Errorf("legal sites kept %+v", legal)
	}
}

func TestSearchErrors(t *testing.T) {
	for status, retryable := range map[int]bool{502: true, 503: true, 504: true, 500: false, 429: false, 403: false} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "nope", status)
		}))
		_, err := New(srv.URL, 5*time.Second).Search(context.Background(), "x", "")
		srv.Close()
		var se *StatusError
		if !errors.As(err, &se) || se.StatusCode != status || se.Retryable() != retryable {
			t.Errorf("%d: %v", status, err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html>not json</html>"))
	}))
	defer srv.Close()
	if _, err := New(srv.URL, 5*time.Second).Search(context.Background(), "x", ""); err == nil {
		t.Error("an HTML page was taken for results")
	}
}
