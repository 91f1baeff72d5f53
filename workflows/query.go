package workflows

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// queryModelOptions govern a query's model call, and queryReadOptions its two reads
// of the corpus: with their retries they fit in a query's run limit (four minutes,
// which the API waits): 2 × 75 s + 1 s, and 2 × (2 × 15 s + 1 s).
var (
	queryModelOptions = workflow.ActivityOptions{
		StartToCloseTimeout: 75 * time.Second,
		HeartbeatTimeout:    10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: 2,
			NonRetryableErrorTypes: []string{schemas.ErrModelRejected, schemas.ErrInvalidArgs}},
		Summary: "Model call (query)",
	}
	queryReadOptions = workflow.ActivityOptions{
		StartToCloseTimeout: 15 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: 2,
			NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs}},
	}
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
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, queryReadOptions), researchActs.Retrieve,
		schemas.Retrieval{Question: in.Question, Language: in.Language, TopK: in.TopK}).Get(ctx, &sources)
	if err != nil {
		return schemas.QueryAnswer{}, err
	}
	req := schemas.ModelRequest{Role: schemas.ModelQuery, Language: in.Language, Tenant: in.Tenant,
		Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: queryMessage(in, sources)}}}
	var resp schemas.ModelResponse
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, queryModelOptions), modelActs.CallModel, req).Get(ctx, &resp); err != nil {
		return schemas.QueryAnswer{}, err
	}
	out := parseQueryAnswer(resp.Content, in.WebHints)
	out.Sources, out.Model, out.Provider, out.Usage = sources, resp.Model, resp.Provider, resp.Usage
	var checked schemas.CheckedReply
	err = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, queryReadOptions), researchActs.CheckCitations,
		schemas.CheckCitations{Reply: out.Answer, Language: in.Language}).Get(ctx, &checked)
	if err != nil {
		return schemas.QueryAnswer{}, err
	}
	out.Answer, out.Citations = checked.Reply, checked.Citations
	return out, nil
}

// queryMessage is what the query model reads: the question on one line (its line
// breaks would let it write lines of the message's own), whether web hints are on, and
// the numbered sources.
func queryMessage(in schemas.Query, sources []schemas.QuerySource) string {
	hints := "off"
	if in.WebHints {
		hints = "on"
	}
	var b strings.Builder
	b.WriteString("Question: " + strings.Join(strings.Fields(in.Question), " ") + "\nWeb search hints: " + hints + "\nSources:\n")
	if len(sources) == 0 {
		b.WriteString("(none)\n")
	}
	for i, s := range sources {
		b.WriteString("[" + strconv.Itoa(i+1) + "] " + s.Reference + " (" + s.Tool + ")\n" + s.Excerpt + "\n")
	}
	return b.String()
}

// parseQueryAnswer reads the query model's JSON answer, perhaps fenced or with words
// around it; an answer may be empty when it asks clarifying questions. A model that
// answered in plain text instead gives that text as the answer; a search_term is
// dropped unless web hints are on.
func parseQueryAnswer(content string, webHints bool) schemas.QueryAnswer {
	var got struct {
		Answer              string   `json:"answer"`
		ClarifyingQuestions []string `json:"clarifying_questions"`
		SearchTerm          string   `json:"search_term"`
	}
	out := schemas.QueryAnswer{ClarifyingQuestions: []string{}}
	if json.Unmarshal([]byte(jsonObjectIn(content)), &got) != nil || strings.TrimSpace(got.Answer) == "" && len(got.ClarifyingQuestions) == 0 {
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
