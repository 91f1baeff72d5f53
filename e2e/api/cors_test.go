package api_test

import (
	"net/http"
	"testing"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
)

// TestCORS: a page of an origin LEXFLOW_CORS_ORIGINS names may call /v1 from the
// browser: its preflight is answered before authentication, and the answers carry its
// origin and never a credentials header. Another origin gets no CORS header, nor do the
// codec routes and the codec session, whatever the origin.
func TestCORS(t *testing.T) {
	t.Parallel()
	const front = "https://coach.example.com"
	c := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.CORSOrigins = []string{front} })
	preflight := func(path, origin, method string) *http.Response {
		req, err := http.NewRequest(http.MethodOptions, c.APIURL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", method)
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type, idempotency-key")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := preflight("/v1/cases/x/messages", front, http.MethodPost)
	h := resp.Header
	if resp.StatusCode != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != front ||
		h.Get("Access-Control-Allow-Credentials") != "" || h.Get("Access-Control-Allow-Headers") == "" {
		t.Errorf("preflight of an allowed origin: %d %v", resp.StatusCode, h)
	}
	for name, r := range map[string]*http.Response{
		"another origin":    preflight("/v1/cases", "https://evil.example.com", http.MethodPost),
		"the codec session": preflight("/v1/support/codec-session", front, http.MethodPost),
		"the codec":         preflight("/codec/decode", front, http.MethodPost),
	} {
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("%s: Access-Control-Allow-Origin %q", name, got)
		}
	}
	// The request itself: its answer names the origin and exposes Retry-After.
	r := c.Call(t, "GET", "/v1/tools", s.Token(t, "alice"), nil, "Origin", front)
	if r.Status != http.StatusOK || r.Header.Get("Access-Control-Allow-Origin") != front || r.Header.Get("Access-Control-Expose-Headers") == "" {
		t.Errorf("GET from the allowed origin: %d %v", r.Status, r.Header)
	}
	r = c.Call(t, "GET", "/v1/tools", s.Token(t, "alice"), nil, "Origin", "https://evil.example.com")
	if r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("GET from another origin: %v", r.Header)
	}
	// Without origins configured, no CORS at all.
	plain := s.Serve(t, nil)
	req, _ := http.NewRequest(http.MethodOptions, plain.APIURL+"/v1/cases", nil)
	req.Header.Set("Origin", front)
	req.Header.Set("Access-Control-Request-Method", http.MethodPost)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("without LEXFLOW_CORS_ORIGINS: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}
