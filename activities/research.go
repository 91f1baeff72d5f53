package activities

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
)

// Research are the activities that read the legal corpus.
type Research struct {
	Corpus *corpus.Store
}

// LegalSQL is the legal_sql tool, seed 003's query_bigquery: one read-only SELECT over
// legislatie or jurisprudenta, at most corpus.MaxRows rows. A refused or failing query
// is an answer for the model, with seed 003's error texts; only an unreadable corpus is
// an activity failure.
func (a *Research) LegalSQL(ctx context.Context, args schemas.LegalSQLArgs) (schemas.LegalSQLResult, error) {
	if !slices.Contains(corpus.QueryTables, args.TableName) {
		return schemas.LegalSQLResult{Status: schemas.ResultError, ErrorMessage: "Invalid table name"}, nil
	}
	res, err := a.Corpus.Query(ctx, args.QueryString, args.TableName, corpus.DefaultQueryTimeout)
	switch {
	case errors.Is(err, corpus.ErrRefused):
		return schemas.LegalSQLResult{Status: schemas.ResultError, ErrorMessage: "Unauthorized access: " + err.Error()}, nil
	case err != nil && ctx.Err() == nil:
		return schemas.LegalSQLResult{Status: schemas.ResultError, ErrorMessage: "Query execution failed: " + err.Error()}, nil
	case err != nil:
		return schemas.LegalSQLResult{}, err
	}
	return schemas.LegalSQLResult{Status: schemas.ResultSuccess, Results: res.Rows, Truncated: res.Truncated}, nil
}

// massimeShown is how many massime infolex_search returns (LEXE's formatter shows 3).
const massimeShown = 3

// kbMaxTopK caps kb_search's top_k (LEXE's executor caps it at 20).
const kbMaxTopK = 20

// NormattivaSearch is normattiva_search, answered from the corpus: an article of an
// Italian act, and of a Romanian one the same way ("Codul civil", "legea"), with its URN
// and whether it is in force. An unknown act is LEXE's failure shape; a missing article,
// an empty text ("no result").
func (a *Research) NormattivaSearch(ctx context.Context, args schemas.NormattivaSearchArgs) (any, error) {
	art, err := a.Corpus.ArticleOf(ctx, corpus.ActRef{Type: args.ActType, Number: args.ActNumber, Date: args.Date}, args.Article)
	switch {
	case errors.Is(err, corpus.ErrNoAct):
		return schemas.ToolFailure{Error: err.Error()}, nil
	case errors.Is(err, corpus.ErrNoArticle):
		return schemas.NormattivaResult{}, nil
	case err != nil:
		return nil, err
	}
	return schemas.NormattivaResult{Text: art.Text, URN: art.URN, Vigente: art.InForce, Title: art.Title,
		ActTitle: art.ActTitle, DocID: art.DocID, URL: art.URL}, nil
}

// EurlexSearch is eurlex_search, answered from the corpus: an article of an EU act in
// the case's language (or the one asked for).
func (a *Research) EurlexSearch(ctx context.Context, args schemas.EurlexSearchArgs) (any, error) {
	lang := args.Language
	if lang == "" {
		lang = "it"
	}
	art, err := a.Corpus.EUArticle(ctx, args.Year, args.Number, args.Article, lang)
	switch {
	case errors.Is(err, corpus.ErrNoArticle):
		return schemas.EurlexResult{}, nil
	case err != nil:
		return nil, err
	}
	return schemas.EurlexResult{Text: art.Text, Title: art.ActTitle, CELEX: art.CELEX, ArticleTitle: art.Title,
		DocID: art.DocID, URL: art.URL}, nil
}

// InfolexSearch is infolex_search: an article of an Italian code with the massime of
// the corpus that cite it. The corpus has no doctrinal commentary, so spiegazione is
// empty rather than invented.
func (a *Research) InfolexSearch(ctx context.Context, args schemas.InfolexSearchArgs) (any, error) {
	art, err := a.Corpus.ArticleOf(ctx, corpus.ActRef{Type: args.ActType}, args.Article)
	switch {
	case errors.Is(err, corpus.ErrNoAct):
		return schemas.ToolFailure{Error: err.Error()}, nil
	case errors.Is(err, corpus.ErrNoArticle):
		return schemas.InfolexResult{Massime: []schemas.Massima{}}, nil
	case err != nil:
		return nil, err
	}
	res := schemas.InfolexResult{ArticleText: art.Title + "\n" + art.Text, Massime: []schemas.Massima{}, DocID: art.DocID}
	if args.IncludeMassime {
		decs, err := a.Corpus.MassimeFor(ctx, args.Article, massimeShown)
		if err != nil {
			return nil, err
		}
		for _, d := range decs {
			res.Massime = append(res.Massime, schemas.Massima{Autorita: reference(d), Testo: d.Massima, DocID: d.DocID})
		}
	}
	return res, nil
}

// KBSearch is kb_search: decisions ranked by a legal concept over the corpus's massime
// and decisions, fused by reciprocal rank, within a subject matter if given.
func (a *Research) KBSearch(ctx context.Context, args schemas.KBSearchArgs) (any, error) {
	start := time.Now()
	topK := min(max(args.TopK, 1), kbMaxTopK)
	hits, err := a.Corpus.SearchDecisions(ctx, args.Query, args.Materia, topK)
	if err != nil {
		return nil, err
	}
	res := schemas.KBSearchResult{Results: []schemas.KBHit{}}
	for _, h := range hits {
		text := h.Massima
		if text == "" {
			text = h.Summary
		}
		if text == "" {
			text = h.FullText
		}
		res.Results = append(res.Results, schemas.KBHit{Riferimento: reference(h.Decision), ID: h.DocID, Testo: clip(text, 1000),
			Materia: h.Materia, RRFScore: h.Score, Score: h.Score, URL: h.URL})
	}
	res.Meta = schemas.KBMeta{LatencyMS: time.Since(start).Milliseconds(), Source: "kb_search"}
	return res, nil
}

// reference cites a decision the way lawyers do: "Cass. pen., Sez. VI, n. 10387/2025",
// "Curtea de Apel Bacău, decizie nr. 724/2021".
func reference(d corpus.Decision) string {
	if d.Jurisdiction == "it" {
		section := romanSections[d.Section]
		if section == "" {
			section = d.Section
		}
		return fmt.Sprintf("Cass. pen., Sez. %s, n. %s/%d", section, d.Number, d.Year)
	}
	if strings.Contains(d.Number, "/") {
		return fmt.Sprintf("%s, %s nr. %s", d.Court, d.Kind, d.Number)
	}
	return fmt.Sprintf("%s, %s din %s", d.Court, d.Kind, d.Date)
}

// romanSections abbreviates the Cassazione's sections.
var romanSections = map[string]string{"Prima": "I", "Seconda": "II", "Terza": "III", "Quarta": "IV", "Quinta": "V",
	"Sesta": "VI", "Settima": "VII", "Sezioni Unite": "U"}

// unverifiedLabels mark an unverified citation in a reply, per language.
var unverifiedLabels = map[string]string{"en": "[unverified]", "ro": "[neverificat]", "it": "[non verificato]"}

// CheckCitations finds the legal citations of a reply, resolves each against the corpus
// and marks those that cannot be verified, so that none passes silently.
func (a *Research) CheckCitations(ctx context.Context, in schemas.CheckCitations) (schemas.CheckedReply, error) {
	cits, err := a.Corpus.CheckCitations(ctx, in.Reply)
	if err != nil {
		return schemas.CheckedReply{}, err
	}
	label := unverifiedLabels[in.Language]
	if label == "" {
		label = unverifiedLabels["en"]
	}
	out := schemas.CheckedReply{Reply: corpus.MarkUnverified(in.Reply, cits, label), Citations: []schemas.Citation{}}
	for _, c := range cits {
		out.Citations = append(out.Citations, schemas.Citation{Text: c.Text, Verified: c.Verified, DocID: c.DocID, URL: c.URL})
	}
	return out, nil
}
