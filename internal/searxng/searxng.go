// Package searxng searches the web through a SearXNG instance's JSON API.
package searxng

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client calls one SearXNG instance.
type Client struct {
	base string
	http *http.Client
}

// New returns a client for the instance at base (e.g. http://localhost:8888). Each
// request is sent once; the caller's retry policy decides about retries.
func New(base string, timeout time.Duration) *Client {
	return &Client{base: strings.TrimRight(base, "/"), http: &http.Client{Timeout: timeout}}
}

// Result is one search result.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Content string `json:"content"`
	Engine  string `json:"engine,omitempty"`
}

// StatusError is an HTTP error answered by the instance.
type StatusError struct {
	StatusCode int
	Body       string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("searxng answered %d: %s", e.StatusCode, e.Body)
}

// HTTPStatus is the status the instance answered.
func (e *StatusError) HTTPStatus() int { return e.StatusCode }

// Retryable reports whether the same request may succeed later: a gateway error
// (502, 503, 504), as LEXE's executor retries.
func (e *StatusError) Retryable() bool {
	return e.StatusCode == http.StatusBadGateway || e.StatusCode == http.StatusServiceUnavailable || e.StatusCode == http.StatusGatewayTimeout
}

// Search asks for q in language (e.g. "it", "ro", "en") and returns the results in
// the instance's order: one page, about 20 with most engines, as SearXNG's API takes
// no count.
func (c *Client) Search(ctx context.Context, q, language string) ([]Result, error) {
	v := url.Values{"q": {q}, "format": {"json"}}
	if language != "" {
		v.Set("language", language)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/search?"+v.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("searxng: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("searxng: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{StatusCode: resp.StatusCode, Body: strings.TrimSpace(string(body[:min(len(body), 200)]))}
	}
	var out struct {
		Results []Result `json:"results"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("searxng: the answer is not SearXNG's JSON (is format=json enabled in settings.yml?): %w", err)
	}
	return out.Results, nil
}

// LegalSites are the sites lex_search keeps results from.
var LegalSites = []string{"normattiva.it", "eur-lex.europa.eu", "brocardi.it", "altalex.com", "dejure.it", "legislatie.just.ro",
	"rejust.ro", "cortedicassazione.it"}

// OnLegalSites keeps the results whose host is one of LegalSites or below one.
func OnLegalSites(results []Result) []Result {
	var out []Result
	for _, r := range results {
		u, err := url.Parse(r.URL)
		if err != nil {
			continue
		}
		host := strings.ToLower(u.Hostname())
		for _, site := range LegalSites {
			if host == site || strings.HasSuffix(host, "."+site) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}
