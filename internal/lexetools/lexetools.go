// Package lexetools calls a LEXE-tools-compatible research service (seed 000's
// lexe-tools-it): the HTTP backend of the research tools when LEXE_TOOLS_URL is set.
package lexetools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// Client calls one service.
type Client struct {
	base string
	http *http.Client
}

// New returns a client for the service at base (e.g. http://lexe-tools:8021). Each
// request is sent once; the tools' Temporal policies decide about retries.
func New(base string, timeout time.Duration) *Client {
	return &Client{base: strings.TrimRight(base, "/"), http: &http.Client{Timeout: timeout}}
}

// StatusError is an HTTP error answered by the service.
type StatusError struct {
	StatusCode int
	Body       string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("lexe-tools answered %d: %s", e.StatusCode, e.Body)
}

// HTTPStatus is the status the service answered.
func (e *StatusError) HTTPStatus() int { return e.StatusCode }

// Retryable reports a gateway error (502, 503, 504), which LEXE's executor retries.
func (e *StatusError) Retryable() bool {
	return e.StatusCode == http.StatusBadGateway || e.StatusCode == http.StatusServiceUnavailable || e.StatusCode == http.StatusGatewayTimeout
}

// languages are the service's language codes.
var languages = map[string]string{"it": "ita", "ro": "ron", "en": "eng"}

// kbMaxTopK is the executor's cap on kb_search's top_k.
const kbMaxTopK = 20

// Normattiva is POST /api/v1/tools/normattiva/search; "version": "vigente" is added
// as LEXE's executor adds it.
func (c *Client) Normattiva(ctx context.Context, a schemas.NormattivaSearchArgs) (json.RawMessage, error) {
	return c.post(ctx, "/api/v1/tools/normattiva/search", map[string]any{
		"act_type": a.ActType, "version": "vigente", "date": a.Date, "act_number": a.ActNumber, "article": a.Article,
	})
}

// Eurlex is POST /api/v1/tools/eurlex/search, in the case's language ("ita" by default).
func (c *Client) Eurlex(ctx context.Context, a schemas.EurlexSearchArgs) (json.RawMessage, error) {
	lang := languages[a.Language]
	if lang == "" {
		lang = "ita"
	}
	return c.post(ctx, "/api/v1/tools/eurlex/search", map[string]any{
		"act_type": a.ActType, "year": a.Year, "number": a.Number, "language": lang, "article": a.Article,
	})
}

// Infolex is POST /api/v1/tools/infolex/search.
func (c *Client) Infolex(ctx context.Context, a schemas.InfolexSearchArgs) (json.RawMessage, error) {
	return c.post(ctx, "/api/v1/tools/infolex/search", map[string]any{
		"act_type": a.ActType, "article": a.Article, "include_massime": a.IncludeMassime,
		"include_relazioni": false, "include_footnotes": false,
	})
}

// italianOnly is the note of kb_search asked for Romanian decisions: the service's
// massimario holds Italian decisions only.
const italianOnly = "The LEXE service's massimario holds Italian decisions only: no Romanian decision can be searched there."

// KB is POST /api/v1/tools/kb/search, top_k capped at 20 and materia sent only when
// set. The service's massimario is Italian and its API takes no jurisdiction: a
// search within the Romanian courts is answered, with no call, by no results and a
// note saying so.
func (c *Client) KB(ctx context.Context, a schemas.KBSearchArgs) (json.RawMessage, error) {
	if a.Jurisdiction == "ro" {
		return json.Marshal(schemas.KBSearchResult{Results: []schemas.KBHit{}, Note: italianOnly, Meta: schemas.KBMeta{Source: schemas.ToolKBSearch}})
	}
	body := map[string]any{"query": a.Query, "top_k": min(max(a.TopK, 1), kbMaxTopK)}
	if a.Materia != "" {
		body["materia"] = a.Materia
	}
	return c.post(ctx, "/api/v1/tools/kb/search", body)
}

// LexSearch is POST /api/v1/tools/lex_search: the service's search of the legal
// sites, for lex_search.
func (c *Client) LexSearch(ctx context.Context, a schemas.LexSearchArgs) (json.RawMessage, error) {
	return c.post(ctx, "/api/v1/tools/lex_search", map[string]any{"query": a.Query})
}

// LexSearchEnriched is POST /api/v1/tools/lex_search/enriched: the same search with
// the service's own analysis, for lex_search_enriched.
func (c *Client) LexSearchEnriched(ctx context.Context, a schemas.LexSearchEnrichedArgs) (json.RawMessage, error) {
	return c.post(ctx, "/api/v1/tools/lex_search/enriched", map[string]any{"query": a.Query})
}

// post sends a JSON body and returns the service's JSON answer as it is.
func (c *Client) post(ctx context.Context, path string, body any) (json.RawMessage, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("lexe-tools: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("lexe-tools: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{StatusCode: resp.StatusCode, Body: strings.TrimSpace(string(data[:min(len(data), 200)]))}
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("lexe-tools: %s answered something that is not JSON", path)
	}
	return data, nil
}
