package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// maxDocIDBytes bounds a doc_id the model sends; the corpus's are far shorter.
const maxDocIDBytes = 200

// ReadLegalText is read_legal_text: one page of the full text of an article or a
// decision of the corpus, by doc_id, with its reference, title, date, in-force flag
// and URL; an article's current text, when Current keeps one, instead of the
// corpus's, dated when it was read. A doc_id the corpus does not hold, or a page past
// the last, is an answer the model can correct, not a failure.
func (a *Research) ReadLegalText(ctx context.Context, args schemas.ReadLegalTextArgs) (schemas.ReadLegalTextResult, error) {
	refuse := func(format string, v ...any) (schemas.ReadLegalTextResult, error) {
		return schemas.ReadLegalTextResult{Status: schemas.ResultError, ErrorMessage: fmt.Sprintf(format, v...)}, nil
	}
	if args.DocID == "" || len(args.DocID) > maxDocIDBytes {
		return refuse("doc_id must be a doc_id a search result gave, e.g. \"ro/legea-287-2009/art-1357\"")
	}
	lt, err := a.Corpus.LegalTextByID(ctx, args.DocID)
	switch {
	case errors.Is(err, corpus.ErrNoDocument):
		return refuse("Lexflow's corpus holds no article or decision with doc_id %q: use a doc_id exactly as a search result "+
			"(normattiva_search, eurlex_search, infolex_search, kb_search) gave it", args.DocID)
	case err != nil:
		return schemas.ReadLegalTextResult{}, fmt.Errorf("read %s: %w", args.DocID, err)
	}
	var version string
	if lt.Kind == corpus.KindArticle && a.Current != nil {
		cur, ok, err := a.Current.CurrentArticle(ctx, lt.DocID)
		if err != nil {
			return schemas.ReadLegalTextResult{}, fmt.Errorf("read the current text of %s: %w", args.DocID, err)
		}
		if ok {
			lt.Text, lt.AsOf, version = cur.Text, cur.ReadAt.UTC().Format(time.DateOnly), currentVersion(cur)
			if cur.URL != "" {
				lt.URL = cur.URL
			}
		}
	}
	pages := corpus.Pages(lt.Text, schemas.LegalTextPageChars)
	page := max(args.Page, 1)
	if page > len(pages) {
		return refuse("%s has %d pages; page %d is past the last", args.DocID, len(pages), page)
	}
	out := schemas.ReadLegalTextResult{Status: schemas.ResultSuccess, DocID: lt.DocID, Reference: lt.Reference, Title: lt.Title,
		AsOf: lt.AsOf, Version: version, URL: lt.URL, Page: page, Pages: len(pages), Text: pages[page-1]}
	switch lt.Kind {
	case corpus.KindDecision:
		out.Kind, out.Reference = schemas.LegalTextDecision, reference(lt.Decision)
	default:
		inForce := lt.InForce
		out.Kind, out.InForce = schemas.LegalTextArticle, &inForce
	}
	return out, nil
}

// currentVersion says where a current text comes from and whether it is consolidated.
func currentVersion(cur store.CurrentArticle) string {
	kind := "as published (the service does not say whether it is consolidated)"
	if cur.Consolidated {
		kind = "consolidated"
	}
	return fmt.Sprintf("%s, %s, read %s", cur.Source, kind, cur.ReadAt.UTC().Format(time.DateOnly))
}
