package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/lexetools"
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
	out, err := a.LexSearch(ctx, schemas.LexSearchArgs{Query: "oblio"})
	lex, _ := out.(schemas.LexSearchResult)
	if err != nil || len(lex.Results) != 10 || lex.Meta.Source != "lex_search" {
		t.Fatalf("lex_search: %+v, %v", lex, err)
	}
	for _, r := range lex.Results {
		if !strings.Contains(r.URL, "altalex.com") {
			t.Errorf("lex_search kept %s", r.URL)
		}
	}
}

// TestWebSearchMaxResults checks that web_search returns max_results results, 1 to 10,
// and Edison's 5 when the model sets none.
func TestWebSearchMaxResults(t *testing.T) {
	ctx := context.Background()
	a := &Web{SearXNG: searx(t, 30)}
	for n, want := range map[int]int{0: 5, 1: 1, 8: 8, 10: 10} {
		web, err := a.WebSearch(ctx, schemas.WebSearchArgs{Query: "oblio", MaxResults: n})
		if err != nil || len(web.Results) != want {
			t.Errorf("max_results %d: %d results, %v; want %d", n, len(web.Results), err, want)
		}
	}
	for _, n := range []int{-1, 11} {
		_, err := a.WebSearch(ctx, schemas.WebSearchArgs{Query: "oblio", MaxResults: n})
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || appErr.Type() != schemas.ErrInvalidArgs {
			t.Errorf("max_results %d: %v, want invalid arguments", n, err)
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

// TestLegalSearchThroughALexeToolsService: with a LEXE-tools service, lex_search and
// lex_search_enriched post seed 000's payloads to its endpoints and pass its answers
// on as they are (the formatter reads both of enriched's shapes), its gateway errors
// retryable and others not; SearXNG is never asked.
func TestLegalSearchThroughALexeToolsService(t *testing.T) {
	ctx := context.Background()
	status, bodies := http.StatusOK, map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		bodies[r.URL.Path] = string(raw)
		if status != http.StatusOK {
			http.Error(w, "down", status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/enriched") {
			fmt.Fprint(w, `{"analysis":"## Analisi\nIl diritto all'oblio...","meta":{"latency_ms":12000,"source":"lex_search_enriched"}}`)
			return
		}
		fmt.Fprint(w, `{"results":[{"title":"Diritto all'oblio","url":"https://www.dejure.it/1","content":"La Suprema Corte..."}],"meta":{"latency_ms":800,"source":"lex_search","endpoint":"x"}}`)
	}))
	defer srv.Close()
	web := &Web{Lexe: lexetools.New(srv.URL, 5*time.Second)}
	out, err := web.LexSearch(ctx, schemas.LexSearchArgs{Query: "oblio", Language: "it"})
	if raw, _ := out.(json.RawMessage); err != nil || !strings.Contains(string(raw), "dejure.it") {
		t.Fatalf("lex_search: %v, %v", out, err)
	}
	out, err = (&Enriched{Web: web}).LexSearchEnriched(ctx, schemas.LexSearchEnrichedArgs{Query: "oblio"})
	if raw, _ := out.(json.RawMessage); err != nil || !strings.Contains(string(raw), "## Analisi") {
		t.Fatalf("lex_search_enriched: %v, %v", out, err)
	}
	for path, want := range map[string]string{"/api/v1/tools/lex_search": `{"query":"oblio"}`, "/api/v1/tools/lex_search/enriched": `{"query":"oblio"}`} {
		if bodies[path] != want {
			t.Errorf("%s got %q, want %q", path, bodies[path], want)
		}
	}
	for code, retryable := range map[int]bool{503: true, 504: true, 400: false, 500: false} {
		status = code
		_, err := web.LexSearch(ctx, schemas.LexSearchArgs{Query: "x"})
		var appErr *temporal.ApplicationError
		if err == nil || (errors.As(err, &appErr) && appErr.NonRetryable()) == retryable {
			t.Errorf("%d: %v", code, err)
		}
	}
}

func TestRetryLine(t *testing.T) {
	for err, want := range map[error]string{
		fmt.Errorf("kb: %w", &lexetools.StatusError{StatusCode: 503}): "[kb_search] Got 503, retrying (attempt 1)",
		fmt.Errorf("search: %w", context.DeadlineExceeded):            "[kb_search] Timeout, retrying (attempt 1)",
		errors.New("no such act"):                                     "",
	} {
		if got := retryLine("kb_search", err, 1); got != want {
			t.Errorf("%v: %q, want %q", err, got, want)
		}
	}
}
