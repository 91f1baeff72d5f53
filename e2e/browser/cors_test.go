package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
)

// TestCORSFromAnotherOrigin: a page served from another origin, as AIR Coach's
// frontend is, calls the API with its bearer token in Chromium: allowed when
// LEXFLOW_CORS_ORIGINS names its origin (the browser's preflight answered), blocked by
// the browser when it does not.
func TestCORSFromAnotherOrigin(t *testing.T) {
	t.Parallel()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>coach</title>")
	}))
	t.Cleanup(front.Close)
	other := httptest.NewServer(front.Config.Handler)
	t.Cleanup(other.Close)
	app := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.CORSOrigins = []string{front.URL} })
	tok := s.Token(t, "coach-user")
	call := fmt.Sprintf(`fetch(%q, {method: "POST", headers: {"Authorization": "Bearer %s", "Content-Type": "application/json", "Idempotency-Key": "k1"},
		body: JSON.stringify({description: "My employer has not paid my last two salaries", language: "en"})})
		.then(r => r.json()).then(j => "created:" + (j.case_id ? "yes" : JSON.stringify(j))).catch(e => "blocked:" + e.name)`, app.APIURL+"/v1/cases", tok)

	p := openPage(t, "en", 800, 600)
	p.do("open the page of the allowed origin", chromedp.Navigate(front.URL))
	if got := eval[string](p, call); got != "created:yes" {
		t.Errorf("from %s: %s", front.URL, got)
	}
	p.do("open the page of another origin", chromedp.Navigate(other.URL))
	if got := eval[string](p, call); !strings.HasPrefix(got, "blocked:") {
		t.Errorf("from %s: %s, want the browser to block it", other.URL, got)
	}
}
