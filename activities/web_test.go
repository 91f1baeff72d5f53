package activities

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/searxng"
	"github.com/lexflow/lexflow/schemas"
)

// searx serves SearXNG's JSON shape: n results alternating a legal site and another.
func searx(t *testing.T, n int) *searxng.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		for i := range n {
			host := "www.altalex.com"
			if i%2 == 1 {
				host = "blog.example.com"
			}
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"url":"https://%s/%d","title":"Result %d","content":%q,"engine":"duckduckgo","score":1}`, host, i, i, strings.Repeat("x", 1000))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"query":%q,"number_of_results":0,"results":[%s],"answers":[],"suggestions":[]}`, r.URL.Query().Get("q"), b.String())
	}))
	t.Cleanup(srv.Close)
	return searxng.New(srv.URL, 5*time.Second)
}

func TestWebSearchTools(t *testing.T) {
	ctx := context.Background()
	a := &Web{SearXNG: searx(t, 30)}
	web, err := a.WebSearch(ctx, schemas.WebSearchArgs{Query: "oblio", Language: "it"})
	if err != nil || !web.Success || len(web.Results) != 5 || len([]rune(web.Results[0].Content)) != 501 {
		t.Fatalf("web_search: %d results, %v", len(web.Results), err)
	}
	lex, err := a.LexSearch(ctx, schemas.LexSearchArgs{Query: "oblio"})
	if err != nil || len(lex.Results) != 10 || lex.Meta.Source != "lex_search" {
		t.Fatalf("lex_search: %+v, %v", lex, err)
	}
	for _, r := range lex.Results {
		if !strings.Contains(r.URL, "altalex.com") {
			t.Errorf("lex_search kept %s", r.URL)
		}
	}
}

func TestWebSearchFailures(t *testing.T) {
	ctx := context.Background()
	_, err := (&Web{}).WebSearch(ctx, schemas.WebSearchArgs{Query: "x"})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || !appErr.NonRetryable() || !strings.Contains(err.Error(), "SEARXNG_URL") {
		t.Errorf("unconfigured: %v", err)
	}
	for status, retryable := range map[int]bool{503: true, 502: true, 400: false, 500: false} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", status) }))
		_, err := (&Web{SearXNG: searxng.New(srv.URL, 5*time.Second)}).LexSearch(ctx, schemas.LexSearchArgs{Query: "x"})
		srv.Close()
		var appErr *temporal.ApplicationError
		nonRetryable := errors.As(err, &appErr) && appErr.NonRetryable()
		if err == nil || nonRetryable == retryable {
			t.Errorf("%d: %v (retryable %v)", status, err, !nonRetryable)
		}
	}
}
