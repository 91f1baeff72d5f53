package workflows

import (
	"encoding/json"
	"strconv"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// Bounds of what a query's model says, as the answer keeps it.
const (
	maxClarifyingQuestions = 3
	maxSearchTermChars     = 200
)

// Query answers POST /v1/query, Sanctum's retrieval-only endpoint: it retrieves the
// question's sources from the corpus (no web tool runs), asks the query model to answer
// from them in JSON, charging the tenant's model-token budget, and checks the answer's
// citations as a turn's reply is checked. A search_term is kept only when web hints
// are on: it is a suggestion for the client, never a search.
func Query(ctx workflow.Context, in schemas.Query) (schemas.QueryAnswer, error) {
	var sources []schemas.QuerySource
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, citationOptions), researchActs.Retrieve,
		schemas.Retrieval{Question: in.Question, Language: in.Language, TopK: in.TopK}).Get(ctx, &sources)
	if err != nil {
		return schemas.QueryAnswer{}, err
	}
	req := schemas.ModelRequest{Role: schemas.ModelQuery, Language: in.Language, Tenant: in.Tenant,
		Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: queryMessage(in, sources)}}}
	opts := modelOptions
	opts.Summary = "Model call (query)"
	var resp schemas.ModelResponse
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), modelActs.CallModel, req).Get(ctx, &resp); err != nil {
		return schemas.QueryAnswer{}, err
	}
	out := parseQueryAnswer(resp.Content, in.WebHints)
	out.Sources, out.Model, out.Usage = sources, resp.Model, resp.Usage
	var checked schemas.CheckedReply
	err = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, citationOptions), researchActs.CheckCitations,
		schemas.CheckCitations{Reply: out.Answer, Language: in.Language}).Get(ctx, &checked)
	if err != nil {
		return schemas.QueryAnswer{}, err
	}
	out.Answer, out.Citations = checked.Reply, checked.Citations
	return out, nil
}

// queryMessage is what the query model reads: the question, whether web hints are on,
// and the numbered sources.
func queryMessage(in schemas.Query, sources []schemas.QuerySource) string {
	hints := "off"
	if in.WebHints {
		hints = "on"
	}
	var b strings.Builder
	b.WriteString("Question: " + in.Question + "\nWeb search hints: " + hints + "\nSources:\n")
	if len(sources) == 0 {
		b.WriteString("(none)\n")
	}
	for i, s := range sources {
		b.WriteString("[" + strconv.Itoa(i+1) + "] " + s.Reference + " (" + s.Tool + ")\n" + s.Excerpt + "\n")
	}
	return b.String()
}

// parseQueryAnswer reads the query model's JSON answer. A model that answered in
// plain text instead gives that text as the answer; a search_term is dropped unless
// web hints are on.
func parseQueryAnswer(content string, webHints bool) schemas.QueryAnswer {
	var got struct {
		Answer              string   `json:"answer"`
		ClarifyingQuestions []string `json:"clarifying_questions"`
		SearchTerm          string   `json:"search_term"`
	}
	out := schemas.QueryAnswer{ClarifyingQuestions: []string{}}
	if json.Unmarshal([]byte(trimFence(content)), &got) != nil || strings.TrimSpace(got.Answer) == "" {
		out.Answer = strings.TrimSpace(content)
		return out
	}
	out.Answer = strings.TrimSpace(got.Answer)
	for _, q := range got.ClarifyingQuestions {
		if q = strings.TrimSpace(q); q != "" && len(out.ClarifyingQuestions) < maxClarifyingQuestions {
			out.ClarifyingQuestions = append(out.ClarifyingQuestions, q)
		}
	}
	if term := strings.Join(strings.Fields(got.SearchTerm), " "); webHints && term != "" {
		out.SearchTerm = tools.Clip(term, maxSearchTermChars)
	}
	return out
}
