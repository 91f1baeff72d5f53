package api

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/internal/auth"
)

// TestWebAppFiles: the page and its files are served with the app's headers, and
// nothing else is: no path out of the embedded tree, no index.html twice.
func TestWebAppFiles(t *testing.T) {
	e, _ := testServer(routes, false)
	for _, tc := range []struct {
		path, kind string
		status     int
	}{
		{"/", "text/html", http.StatusOK},
		{"/app/app.css", "text/css", http.StatusOK},
		{"/app/js/main.js", "javascript", http.StatusOK},
		{"/app/index.html", "", http.StatusNotFound},
		{"/app/./index.html", "", http.StatusNotFound},
		{"/app/js/../index.html", "", http.StatusNotFound},
		{"/app/../web.go", "", http.StatusNotFound},
		{"/app/%2e%2e/web.go", "", http.StatusNotFound},
		{"/app/js/", "", http.StatusNotFound},
		{"/app/nope.js", "", http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if rec.Code != tc.status {
			t.Errorf("GET %s: %d, want %d", tc.path, rec.Code, tc.status)
			continue
		}
		if tc.status != http.StatusOK {
			continue
		}
		if got := rec.Header().Get("Content-Type"); !strings.Contains(got, tc.kind) {
			t.Errorf("GET %s: Content-Type %q, want %s", tc.path, got, tc.kind)
		}
		csp := rec.Header().Get("Content-Security-Policy")
		for _, want := range []string{"script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: CSP %q lacks %s", tc.path, csp, want)
			}
		}
		if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff", tc.path)
		}
	}
}

// TestWebAppConfig: the app learns whether the dev sign-in exists and which provider
// to sign in at, and the CSP lets it reach that provider's token endpoint only.
func TestWebAppConfig(t *testing.T) {
	for _, dev := range []bool{false, true} {
		oidc := &AppOIDC{Issuer: "https://id.example", ClientID: "web", Audience: "https://api.example", Scope: "openid",
			AuthorizationEndpoint: "https://id.example/authorize", TokenEndpoint: "https://tokens.example/oauth/token"}
		h := &handlers{Log: slog.New(slog.DiscardHandler), Dev: dev, App: AppConfig{OIDC: oidc, Namespace: "default"}}
		if dev {
			h.DevTokens = &auth.HS256{Secret: []byte("webapp-test-secret-webapp-test-secret")}
		}
		e := newServer(h, routes)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app/config.json", nil))
		var got AppConfig
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != http.StatusOK {
			t.Fatalf("GET /app/config.json: %d %s", rec.Code, rec.Body)
		}
		if got.Dev != dev || got.OIDC == nil || got.OIDC.TokenEndpoint != oidc.TokenEndpoint {
			t.Errorf("dev %v: config %+v", dev, got)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' https://tokens.example;") {
			t.Errorf("CSP %q does not allow the token endpoint alone", csp)
		}
	}
}
