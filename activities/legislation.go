package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
)

// Bounds of legislation_search's answer.
const (
	// legislationDefaultTopK is how many articles it returns unless asked.
	legislationDefaultTopK = 5
	// legislationExcerptChars caps each article's excerpt.
	legislationExcerptChars = 1000
)

// LegislationSearch is legislation_search: the statute articles that answer a question
// in the client's words, ranked by the corpus's analysed indexes and the configured
// layers (corpus.SearchLegislationWith, Research.Layers) within a jurisdiction and
// optionally an act. The jurisdiction and the act are checked before any layer runs,
// so that a request the corpus cannot answer spends no model or embedding call. An
// act the corpus does not hold is answered with no results and a note naming the acts
// it does, for the model to read and correct; only an unreadable corpus fails the
// activity.
func (a *Research) LegislationSearch(ctx context.Context, args schemas.LegislationSearchArgs) (json.RawMessage, error) {
	start := time.Now()
	topK := args.TopK
	if topK <= 0 {
		topK = legislationDefaultTopK
	}
	res := schemas.LegislationSearchResult{Results: []schemas.LegislationHit{}, Language: questionLanguage(args.Query)}
	var hits []corpus.ArticleHit
	err := a.Corpus.CheckLegislationScope(ctx, args.Jurisdiction, args.Act)
	if err == nil {
		var layers corpus.Layers
		if layers, err = a.Layers.For(ctx, args.Query, args.Jurisdiction); err != nil {
			return nil, err
		}
		hits, err = a.Corpus.SearchLegislationWith(ctx, args.Query, args.Jurisdiction, args.Act, min(topK, corpus.MaxArticleHits), layers)
	}
	switch {
	case errors.Is(err, corpus.ErrNoAct):
		acts, aerr := a.Corpus.ActNames(ctx)
		if aerr != nil {
			return nil, aerr
		}
		res.Note = fmt.Sprintf("No act %q in the corpus; it holds: %s.", args.Act, strings.Join(acts, "; "))
	case errors.Is(err, corpus.ErrJurisdiction):
		res.Note = err.Error()
	case err != nil:
		return nil, err
	}
	for _, h := range hits {
		res.Results = append(res.Results, legislationHit(h))
	}
	res.Meta = schemas.KBMeta{LatencyMS: time.Since(start).Milliseconds(), Source: schemas.ToolLegislationSearch}
	return asJSON(res)
}

// legislationHit is an article as legislation_search answers it.
func legislationHit(h corpus.ArticleHit) schemas.LegislationHit {
	return schemas.LegislationHit{Reference: articleReference(h.Article), Title: h.Title, DocID: h.DocID, Jurisdiction: h.Jurisdiction,
		AsOf: h.AsOf, InForce: h.InForce, Excerpt: clip(h.Text, legislationExcerptChars), URL: h.URL, Score: h.Score}
}

// articleReference cites an article as lawyers do: "Codul civil, art. 1357",
// "Codice Civile, art. 2043", "Regulation (EU) 2016/679 (General Data Protection
// Regulation), art. 17".
func articleReference(a corpus.Article) string {
	return a.ActTitle + ", art. " + a.Article
}

// questionLanguage is the language of a question by its stop words, English when they
// do not tell.
func questionLanguage(q string) string {
	if lang := corpus.QueryLanguage(q); lang != "" {
		return lang
	}
	return "en"
}
