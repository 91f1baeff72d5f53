package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/searxng"
	"github.com/lexflow/lexflow/schemas"
)

// Web are the activities that search the web: through a LEXE-tools service's own
// endpoints for the legal searches when one is configured (seed 000), else through
// SearXNG.
type Web struct {
	// SearXNG is nil when no instance is configured; web_search is then not offered,
	// nor are the legal searches without Lexe.
	SearXNG *searxng.Client
	// Lexe answers lex_search and lex_search_enriched when set.
	Lexe LexeSearch
}

// LexeSearch is a LEXE-tools service's search of the legal sites (package lexetools).
type LexeSearch interface {
	LexSearch(context.Context, schemas.LexSearchArgs) (json.RawMessage, error)
	LexSearchEnriched(context.Context, schemas.LexSearchEnrichedArgs) (json.RawMessage, error)
}

// Result caps, as LEXE's executors keep them; web_search's count is its max_results.
const (
	webContentMax = 500
	lexResults    = 10
	lexContentMax = 800
)

// WebSearch is web_search: SearXNG's first max_results results for the query (1 to
// schemas.MaxWebResults; schemas.DefaultWebResults when unset, as Edison's default).
func (a *Web) WebSearch(ctx context.Context, args schemas.WebSearchArgs) (schemas.WebSearchResult, error) {
	n := args.MaxResults
	switch {
	case n == 0:
		n = schemas.DefaultWebResults
	case n < 0 || n > schemas.MaxWebResults:
		return schemas.WebSearchResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("max_results must be 1 to %d, got %d", schemas.MaxWebResults, n), schemas.ErrInvalidArgs, nil)
	}
	res, err := a.search(ctx, args.Query, args.Language)
	if err != nil {
		return schemas.WebSearchResult{}, err
	}
	return schemas.WebSearchResult{Success: true, Query: args.Query, Results: toWebResults(res, n, webContentMax)}, nil
}

// LexSearch is lex_search: the LEXE-tools service's answer as it is, when one is
// configured; else SearXNG's results for the query kept to the legal sites
// (searxng.LegalSites), at most 10.
func (a *Web) LexSearch(ctx context.Context, args schemas.LexSearchArgs) (any, error) {
	if a.Lexe != nil {
		return backendResult(a.Lexe.LexSearch(ctx, args))
	}
	return a.searchLegalSites(ctx, args)
}

// searchLegalSites is lex_search through SearXNG.
func (a *Web) searchLegalSites(ctx context.Context, args schemas.LexSearchArgs) (schemas.LexSearchResult, error) {
	start := time.Now()
	res, err := a.search(ctx, args.Query, args.Language)
	if err != nil {
		return schemas.LexSearchResult{}, err
	}
	return schemas.LexSearchResult{Results: toWebResults(searxng.OnLegalSites(res), lexResults, lexContentMax),
		Meta: schemas.KBMeta{LatencyMS: time.Since(start).Milliseconds(), Source: "lex_search"}}, nil
}

// search calls SearXNG, its failures sorted by upstreamError.
func (a *Web) search(ctx context.Context, q, lang string) ([]searxng.Result, error) {
	if a.SearXNG == nil {
		return nil, errNoSearXNG()
	}
	res, err := a.SearXNG.Search(ctx, q, lang)
	if err != nil {
		return nil, upstreamError(err)
	}
	return res, nil
}

// errNoSearXNG is the failure of a web search in a deployment without SearXNG.
func errNoSearXNG() error {
	return temporal.NewNonRetryableApplicationError("web search is not configured (SEARXNG_URL)", schemas.ErrToolUnavailable, nil)
}

func toWebResults(res []searxng.Result, n, contentMax int) []schemas.WebResult {
	out := []schemas.WebResult{}
	for _, r := range res[:min(len(res), n)] {
		out = append(out, schemas.WebResult{Title: r.Title, URL: r.URL, Content: clip(r.Content, contentMax)})
	}
	return out
}
