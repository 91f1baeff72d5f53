package activities

import (
	"context"
	"time"
	"unicode/utf8"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/language"
	"github.com/lexflow/lexflow/schemas"
)

// CheckCitations finds the legal citations of a reply and checks each against the
// corpus; it marks in the reply, in the case's language, those not found, misquoted or
// repealed, and lists those it cannot check, so that none passes silently. It
// publishes what it found.
func (a *Research) CheckCitations(ctx context.Context, in schemas.CheckCitations) (schemas.CheckedReply, error) {
	cits, err := a.Corpus.CheckCitationsWith(ctx, in.Reply, in.Language, a.currentText())
	if err != nil {
		return schemas.CheckedReply{}, err
	}
	out := schemas.CheckedReply{Reply: corpus.Mark(in.Reply, cits, in.Language), Citations: citationsOf(cits)}
	a.Events.Tell(ctx, schemas.EventCitations, schemas.EventCitations, schemas.CitationsEvent{Citations: out.Citations})
	return out, nil
}

// CheckText checks the citations of any text, for POST /v1/citations/check and for
// drafts, in the text's language when none is given. A text too long or not UTF-8 is
// refused for good.
func (a *Research) CheckText(ctx context.Context, in schemas.CitationCheck) (schemas.CitationReport, error) {
	if len(in.Text) > schemas.MaxCheckedText || !utf8.ValidString(in.Text) {
		return schemas.CitationReport{}, temporal.NewNonRetryableApplicationError("the text is too long or not UTF-8", schemas.ErrInvalidArgs, nil)
	}
	if in.Language == "" {
		in.Language = language.Guess(in.Text)
	}
	cits, err := a.Corpus.CheckCitationsWith(ctx, in.Text, in.Language, a.currentText())
	if err != nil {
		return schemas.CitationReport{}, err
	}
	return schemas.CitationReport{Citations: citationsOf(cits), Truncated: len(cits) >= corpus.MaxCitations}, nil
}

// citationsOf gives the corpus's citations their API shape.
func citationsOf(cits []corpus.Citation) []schemas.Citation {
	out := make([]schemas.Citation, 0, len(cits))
	for _, c := range cits {
		sc := schemas.Citation{Text: c.Text, Kind: c.Kind, Status: c.Status, Verified: c.Verified(), RefersTo: c.RefersTo,
			Article: c.Article, DocID: c.DocID, URL: c.URL, AsOf: c.AsOf, Quote: c.Quote, Passage: c.Passage}
		if c.DocID != "" {
			inForce := c.InForce
			sc.InForce = &inForce
		}
		out = append(out, sc)
	}
	return out
}

// currentText reads the store's current texts for the citation check, or nil when
// none is configured: an article's current text, dated when it was read.
func (a *Research) currentText() corpus.Current {
	if a.Current == nil {
		return nil
	}
	return func(ctx context.Context, docID string) (string, string, bool, error) {
		cur, ok, err := a.Current.CurrentArticle(ctx, docID)
		if err != nil || !ok {
			return "", "", false, err
		}
		return cur.Text, cur.ReadAt.UTC().Format(time.DateOnly), true, nil
	}
}
