package activities

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
)

// Enriched runs lex_search_enriched: a legal web search, the legal references in its
// results checked against the corpus, and the reasoner model's analysis.
type Enriched struct {
	Web      *Web
	Corpus   *corpus.Store
	Reasoner *llm.Client
	Prompts  *SystemPrompts
	// Meter charges the reasoner's analysis to the case's model-token budgets.
	Meter *Meter
}

// In-force statuses of a result's references, as LEXE's vigenza field reports them.
const (
	vigente       = "vigente"
	abrogato      = "abrogato"
	nonVerificato = "non verificato"
)

// LexSearchEnriched returns the LEXE-tools service's answer as it is, when one is
// configured. Otherwise it makes LEXE's answer itself: shape A, the reasoner's
// analysis followed by the references and their status, or, when the reasoner gives
// none, shape B: the results each with the in-force status (vigenza) of the
// references it makes.
func (a *Enriched) LexSearchEnriched(ctx context.Context, args schemas.LexSearchEnrichedArgs) (any, error) {
	if a.Web.Lexe != nil {
		return backendResult(a.Web.Lexe.LexSearchEnriched(ctx, args))
	}
	start := time.Now()
	found, err := a.Web.searchLegalSites(ctx, schemas.LexSearchArgs(args))
	if err != nil {
		return nil, err
	}
	results := make([]schemas.EnrichedResult, len(found.Results))
	refs := []schemas.Reference{}
	for i, r := range found.Results {
		cits, err := a.Corpus.CheckCitations(ctx, r.Title+"\n"+r.Content, args.Language)
		if err != nil {
			return nil, err
		}
		results[i] = schemas.EnrichedResult{Title: r.Title, URL: r.URL, Content: r.Content, Vigenza: vigenza(cits)}
		for _, c := range cits {
			if !containsRef(refs, c) {
				refs = append(refs, schemas.Reference{Text: c.Text, Verified: c.Held(), InForce: c.InForce, DocID: c.DocID})
			}
		}
	}
	refText := referencesText(refs)
	analysis, err := a.analyse(ctx, args, results, refText)
	if err != nil {
		return nil, err
	}
	if analysis == "" {
		return schemas.EnrichedResults{Results: results, EnrichedResults: refText, References: refs}, nil
	}
	return schemas.EnrichedAnalysis{Analysis: strings.TrimSpace(analysis + "\n\n" + refText), References: refs,
		Meta: schemas.KBMeta{LatencyMS: time.Since(start).Milliseconds(), Source: "lex_search_enriched"}}, nil
}

// analyse asks the reasoner about the results. No reasoner, one that refuses the
// request, or a budget used up means no analysis; a transient failure is an error the
// policy may retry.
func (a *Enriched) analyse(ctx context.Context, args schemas.LexSearchEnrichedArgs, results []schemas.EnrichedResult, refs string) (string, error) {
	if a.Reasoner == nil || len(results) == 0 {
		return "", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\nResults:\n", args.Query)
	for _, r := range results {
		fmt.Fprintf(&b, "- %s (%s): %s\n", r.Title, r.URL, clip(r.Content, 800))
	}
	b.WriteString("\n" + refs + "\nAnalyse what these sources say about the question, relying only on them.")
	system, err := a.Prompts.System(ctx, schemas.ModelReasoner, prompts.Context{Language: args.Language})
	if err != nil {
		return "", err
	}
	msgs := []schemas.ChatMessage{
		{Role: schemas.MsgSystem, Content: system},
		{Role: schemas.MsgUser, Content: b.String()},
	}
	resp, err := a.Meter.Complete(ctx, a.Reasoner, msgs, nil, nil)
	if err != nil && llm.Retryable(err) && !isBudgetExhausted(err) {
		return "", err
	}
	if err != nil {
		return "", nil
	}
	return strings.TrimSpace(resp.Content), nil
}

// vigenza sums up a result's references: repealed if any is, in force if all are,
// unverified if none could be checked, nothing if it makes none.
func vigenza(cits []corpus.Citation) string {
	status := ""
	for _, c := range cits {
		switch {
		case c.Held() && !c.InForce:
			return abrogato
		case c.Held():
			status = vigente
		case status == "":
			status = nonVerificato
		}
	}
	return status
}

// referencesText lists the references and their status.
func referencesText(refs []schemas.Reference) string {
	if len(refs) == 0 {
		return "References: none found."
	}
	var b strings.Builder
	b.WriteString("References:\n")
	for _, r := range refs {
		status := nonVerificato
		if r.Verified {
			status = vigente
			if !r.InForce {
				status = abrogato
			}
		}
		fmt.Fprintf(&b, "- %s: %s\n", r.Text, status)
	}
	return strings.TrimSpace(b.String())
}

// containsRef reports whether refs has c already: the same document, or, when it
// resolves to none, the same text in any case.
func containsRef(refs []schemas.Reference, c corpus.Citation) bool {
	for _, r := range refs {
		if (c.DocID != "" && r.DocID == c.DocID) || (c.DocID == "" && r.DocID == "" && strings.EqualFold(r.Text, c.Text)) {
			return true
		}
	}
	return false
}
