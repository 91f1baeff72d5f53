package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Research are the activities that read the law: the legal corpus, and for the search
// tools a Backend, which is the corpus unless a LEXE-tools service is configured.
type Research struct {
	Corpus *corpus.Store
	// Backend answers the search tools; nil means the corpus.
	Backend Backend
	// Events publishes the citation check's result.
	Events *Publisher
	// Current holds the current texts of articles an official service gave, read
	// before the corpus's; nil when none is configured.
	Current store.CurrentTexts
	// Layers are what legislation_search and POST /v1/query's retrieval add to the
	// lexical ranking of statute articles; the zero value adds none.
	Layers SearchLayers
}

// Backend answers the search tools with LEXE's response shapes. The corpus is one; a
// LEXE-tools-compatible HTTP service (package lexetools) is another.
type Backend interface {
	Normattiva(context.Context, schemas.NormattivaSearchArgs) (json.RawMessage, error)
	Eurlex(context.Context, schemas.EurlexSearchArgs) (json.RawMessage, error)
	Infolex(context.Context, schemas.InfolexSearchArgs) (json.RawMessage, error)
	KB(context.Context, schemas.KBSearchArgs) (json.RawMessage, error)
}

func (a *Research) backend() Backend {
	if a.Backend != nil {
		return a.Backend
	}
	return corpusBackend{c: a.Corpus, current: a.Current, decisions: corpus.DecisionLayers{Glossary: a.Layers.Glossary}}
}

// NormattivaSearch is normattiva_search: an article of an Italian act, and of a
// Romanian one the same way, with its URN and whether it is in force.
func (a *Research) NormattivaSearch(ctx context.Context, args schemas.NormattivaSearchArgs) (json.RawMessage, error) {
	return backendResult(a.backend().Normattiva(ctx, args))
}

// EurlexSearch is eurlex_search: an article of an EU act in the case's language.
func (a *Research) EurlexSearch(ctx context.Context, args schemas.EurlexSearchArgs) (json.RawMessage, error) {
	return backendResult(a.backend().Eurlex(ctx, args))
}

// InfolexSearch is infolex_search: an article of an Italian code with its massime.
func (a *Research) InfolexSearch(ctx context.Context, args schemas.InfolexSearchArgs) (json.RawMessage, error) {
	return backendResult(a.backend().Infolex(ctx, args))
}

// KBSearch is kb_search: decisions ranked by a legal concept, within a jurisdiction's
// courts when asked. A jurisdiction the corpus has no courts of is answered, as
// legislation_search answers one, with no results and a note naming ro, it and all,
// before any backend is asked.
func (a *Research) KBSearch(ctx context.Context, args schemas.KBSearchArgs) (json.RawMessage, error) {
	if err := (corpus.DecisionScope{Jurisdiction: args.Jurisdiction}).Check(); err != nil {
		return asJSON(schemas.KBSearchResult{Results: []schemas.KBHit{}, Note: err.Error(), Meta: schemas.KBMeta{Source: schemas.ToolKBSearch}})
	}
	return backendResult(a.backend().KB(ctx, args))
}

// backendResult passes a backend's answer on, its failure sorted by upstreamError.
func backendResult(res json.RawMessage, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, upstreamError(err)
	}
	return res, nil
}

// upstreamError sorts a search service's failure as LEXE's executor does: a gateway
// error (502, 503, 504) or a timeout may be retried by the tool's policy; anything else
// fails at once.
func upstreamError(err error) error {
	var gateway interface{ Retryable() bool }
	var netErr net.Error
	if (errors.As(err, &gateway) && gateway.Retryable()) || (errors.As(err, &netErr) && netErr.Timeout()) {
		return err
	}
	return temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrSearchFailed, err)
}

// corpusBackend answers the search tools from the shipped corpus, and an article's
// text from current, when it keeps one; kb_search ranks decisions with the layers
// decisions.
type corpusBackend struct {
	c         *corpus.Store
	current   store.CurrentTexts
	decisions corpus.DecisionLayers
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

// Normattiva answers from the corpus: acts are named as lawyers name them, Italian and
// Romanian ("Codul civil", "legea"). An unknown act is LEXE's failure shape; a missing
// article, an empty text ("no result").
func (b corpusBackend) Normattiva(ctx context.Context, args schemas.NormattivaSearchArgs) (json.RawMessage, error) {
	art, err := b.c.ArticleOf(ctx, corpus.ActRef{Type: args.ActType, Number: args.ActNumber, Date: args.Date}, args.Article)
	switch {
	case errors.Is(err, corpus.ErrNoAct):
		return asJSON(schemas.ToolFailure{Error: err.Error()})
	case errors.Is(err, corpus.ErrNoArticle):
		return asJSON(schemas.NormattivaResult{})
	case err != nil:
		return nil, err
	}
	if b.current != nil {
		cur, ok, err := b.current.CurrentArticle(ctx, art.DocID)
		if err != nil {
			return nil, err
		}
		if ok {
			art.Text = cur.Text
		}
	}
	return asJSON(schemas.NormattivaResult{Text: art.Text, URN: art.URN, Vigente: art.InForce, Title: art.Title,
		ActTitle: art.ActTitle, DocID: art.DocID, URL: art.URL, Jurisdiction: art.Jurisdiction, Article: art.Article})
}

// Eurlex answers from the corpus, in the case's language (or the one asked for).
func (b corpusBackend) Eurlex(ctx context.Context, args schemas.EurlexSearchArgs) (json.RawMessage, error) {
	lang := args.Language
	if lang == "" {
		lang = "it"
	}
	art, err := b.c.EUArticle(ctx, args.Year, args.Number, args.Article, lang)
	switch {
	case errors.Is(err, corpus.ErrNoArticle):
		return asJSON(schemas.EurlexResult{})
	case err != nil:
		return nil, err
	}
	return asJSON(schemas.EurlexResult{Text: art.Text, Title: art.ActTitle, CELEX: art.CELEX, ArticleTitle: art.Title,
		DocID: art.DocID, URL: art.URL})
}

// Infolex answers from the corpus: the article with the massime that cite it. The
// corpus has no doctrinal commentary, so spiegazione is empty rather than invented.
func (b corpusBackend) Infolex(ctx context.Context, args schemas.InfolexSearchArgs) (json.RawMessage, error) {
	art, err := b.c.ArticleOf(ctx, corpus.ActRef{Type: args.ActType}, args.Article)
	switch {
	case errors.Is(err, corpus.ErrNoAct):
		return asJSON(schemas.ToolFailure{Error: err.Error()})
	case errors.Is(err, corpus.ErrNoArticle):
		return asJSON(schemas.InfolexResult{Massime: []schemas.Massima{}})
	case err != nil:
		return nil, err
	}
	res := schemas.InfolexResult{ArticleText: art.Title + "\n" + art.Text, Massime: []schemas.Massima{}, DocID: art.DocID}
	if args.IncludeMassime {
		decs, err := b.c.MassimeFor(ctx, args.Article, massimeShown)
		if err != nil {
			return nil, err
		}
		for _, d := range decs {
			res.Massime = append(res.Massime, schemas.Massima{Autorita: reference(d), Testo: d.Massima, DocID: d.DocID})
		}
	}
	return asJSON(res)
}

// KB answers from the corpus: its massime and decisions ranked by reciprocal rank
// fusion with the backend's layers (corpus.SearchDecisionsWith), within a subject
// matter and a jurisdiction if given, top_k capped at 20.
func (b corpusBackend) KB(ctx context.Context, args schemas.KBSearchArgs) (json.RawMessage, error) {
	start := time.Now()
	topK := min(max(args.TopK, 1), kbMaxTopK)
	hits, err := b.c.SearchDecisionsWith(ctx, args.Query, corpus.DecisionScope{Materia: args.Materia, Jurisdiction: args.Jurisdiction}, topK, b.decisions)
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
	return asJSON(res)
}

func asJSON(v any) (json.RawMessage, error) { return json.Marshal(v) }

// reference cites a decision the way lawyers do, in a form the citation check reads
// (corpus.CheckCitations): "Cass. pen., Sez. VI, n. 10387/2025"; a Romanian one by
// its kind, number and court after it ("Decizia nr. 724/2021, Curtea de Apel Bacău"),
// as each Romanian court numbers its own; one whose number the source masks by its
// date, court and ReJust identifier ("Decizia din 27.05.2026, Curtea de Apel Alba
// Iulia (ReJust Hotarare-27.05.2026-d98e82869)").
func reference(d corpus.Decision) string {
	if d.Jurisdiction == "it" {
		section := romanSections[d.Section]
		if section == "" {
			section = d.Section
		}
		return fmt.Sprintf("Cass. pen., Sez. %s, n. %s/%d", section, d.Number, d.Year)
	}
	word := roDecisionWords[d.Kind]
	if word == "" {
		word = "Decizia"
	}
	if courtNumber.MatchString(d.Number) {
		return fmt.Sprintf("%s nr. %s, %s", word, d.Number, d.Court)
	}
	ref := fmt.Sprintf("%s din %s, %s", word, roDate(d.Date), d.Court)
	if id, ok := strings.CutPrefix(d.DocID, corpus.RejustDocPrefix); ok {
		ref += " (ReJust " + id + ")"
	}
	return ref
}

// courtNumber is a Romanian decision's number as its court gives it, "724/2021"; the
// source masks some ("ee3dge372/2023"), which no citation can name.
var courtNumber = regexp.MustCompile(`^\d+/\d{4}$`)

// roDecisionWords name the kinds of Romanian decisions as a citation writes them.
var roDecisionWords = map[string]string{"decizie": "Decizia", "sentinta": "Sentința", "hotarare": "Hotărârea",
	"incheiere": "Încheierea", "RIL": "Decizia", "HP": "Decizia"}

// roDate writes an ISO date ("2026-05-27") as Romanian texts do, "27.05.2026".
func roDate(iso string) string {
	if t, err := time.Parse(time.DateOnly, iso); err == nil {
		return t.Format("02.01.2006")
	}
	return iso
}

// romanSections abbreviates the Cassazione's sections.
var romanSections = map[string]string{"Prima": "I", "Seconda": "II", "Terza": "III", "Quarta": "IV", "Quinta": "V",
	"Sesta": "VI", "Settima": "VII", "Sezioni Unite": "U"}
