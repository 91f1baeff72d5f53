package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
)

// Bounds of a query's sources.
const (
	// queryArticles caps the articles a question cites that are looked up.
	queryArticles = 5
	// queryLegislation is how many articles legislation_search's ranking adds.
	queryLegislation = 3
	// sourceExcerptChars caps each source's excerpt.
	sourceExcerptChars = 1200
)

// Retrieve finds the sources POST /v1/query answers from, without any web tool: the
// articles the question cites that the corpus holds (as normattiva_search and
// eurlex_search read them), or when it cites none, the articles legislation_search
// ranks first for it in every jurisdiction (so that a question in a client's words
// reaches the law that governs it), then the decisions kb_search ranks first for it.
func (a *Research) Retrieve(ctx context.Context, in schemas.Retrieval) ([]schemas.QuerySource, error) {
	sources := []schemas.QuerySource{}
	cits, err := a.Corpus.CheckCitations(ctx, in.Question, in.Language)
	if err != nil {
		return nil, err
	}
	for _, c := range cits {
		if c.Kind != corpus.KindArticle || c.DocID == "" || len(sources) == queryArticles {
			continue
		}
		art, err := a.Corpus.ArticleByID(ctx, c.DocID)
		if errors.Is(err, corpus.ErrNoArticle) {
			continue
		}
		if err != nil {
			return nil, err
		}
		tool := schemas.ToolNormattivaSearch
		if art.Jurisdiction == "eu" {
			tool = schemas.ToolEurlexSearch
		}
		sources = append(sources, schemas.QuerySource{Tool: tool, Reference: c.Text, DocID: art.DocID, URL: art.URL,
			Excerpt: clip(art.Title+"\n"+art.Text, sourceExcerptChars)})
	}
	if len(sources) == 0 {
		if sources, err = a.governingArticles(ctx, in.Question); err != nil {
			return nil, err
		}
	}
	raw, err := backendResult(a.backend().KB(ctx, schemas.KBSearchArgs{Query: in.Question, TopK: in.TopK}))
	if err != nil {
		return nil, err
	}
	var kb schemas.KBSearchResult
	if err := json.Unmarshal(raw, &kb); err != nil {
		return nil, fmt.Errorf("kb_search's answer: %w", err)
	}
	for _, h := range kb.Results {
		sources = append(sources, schemas.QuerySource{Tool: schemas.ToolKBSearch, Reference: h.Riferimento, DocID: h.ID, URL: h.URL,
			Excerpt: clip(h.Testo, sourceExcerptChars)})
	}
	return sources, nil
}

// governingArticles are the articles legislation_search ranks first for a question, as
// sources.
func (a *Research) governingArticles(ctx context.Context, question string) ([]schemas.QuerySource, error) {
	layers, err := a.Layers.For(ctx, question, corpus.JurisdictionAll)
	if err != nil {
		return nil, err
	}
	hits, err := a.Corpus.SearchLegislationWith(ctx, question, corpus.JurisdictionAll, "", queryLegislation, layers)
	if err != nil {
		return nil, err
	}
	sources := []schemas.QuerySource{}
	for _, h := range hits {
		sources = append(sources, schemas.QuerySource{Tool: schemas.ToolLegislationSearch, Reference: articleReference(h.Article),
			DocID: h.DocID, URL: h.URL, Excerpt: clip(h.Title+"\n"+h.Text, sourceExcerptChars)})
	}
	return sources, nil
}
