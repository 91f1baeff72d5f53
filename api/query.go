package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/language"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// QueryRequest is POST /v1/query's body, Sanctum's: a question, the tools whose hints
// are wanted, how many knowledge-base results to read, and the answer's language.
type QueryRequest struct {
	Question string   `json:"question"`
	Tools    []string `json:"tools,omitempty"`
	TopK     int      `json:"top_k,omitempty"`
	Language string   `json:"language,omitempty"`
}

// queryWait bounds how long POST /v1/query waits for its answer, and how long the
// Query workflow may run: a model call and two reads of the corpus, each retried once,
// fit in it (see workflows.queryModelOptions).
const queryWait = 4 * time.Minute

// query answers POST /v1/query: Sanctum's retrieval-only endpoint. It answers from
// the corpus (the articles the question cites and kb_search's decisions) and never runs
// a web tool; when tools names web_search (or web-search) the answer may carry a
// search_term for the client to show or to run as a chat turn with web_search on. The
// model's tokens count against the caller's tenant's budget (402 budget-exhausted when
// it is used up, and 402 payment-required past the allowance of a tenant that has paid
// for nothing, see checkQueryAllowance), and the answer's citations are checked as a
// turn's are. The query's payloads are sealed with the tenant's key (tenantRun).
func (h *handlers) query(c echo.Context) error {
	var req QueryRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	q, err := queryOf(req, h.DefaultLanguage)
	if err != nil {
		return err
	}
	who := identity(c)
	if err := h.checkQueryAllowance(c.Request().Context(), who); err != nil {
		return err
	}
	q.Tenant = schemas.TenantKey(who.Org, who.Subject)
	var out schemas.QueryAnswer
	opts := tenantRun(who, schemas.QueryWorkflowID, queryWait)
	if err := h.runShort(c, opts, queryWait, "query", schemas.QueryWorkflow, q, &out); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// queryOf checks a query request and gives it its defaults: top_k 5, the language
// guessed from the question, or defaultLanguage when the question tells none.
func queryOf(req QueryRequest, defaultLanguage string) (schemas.Query, error) {
	q := schemas.Query{Question: strings.TrimSpace(req.Question), Language: req.Language, TopK: req.TopK}
	switch {
	case q.Question == "":
		return q, problemf(errInvalidInput, "question is required")
	case utf8.RuneCountInString(q.Question) > schemas.MaxQuestionChars:
		return q, problemf(errInvalidInput, fmt.Sprintf("question is at most %d characters", schemas.MaxQuestionChars))
	case q.TopK < 0 || q.TopK > schemas.MaxQueryTopK:
		return q, problemf(errInvalidInput, fmt.Sprintf("top_k is from 1 to %d", schemas.MaxQueryTopK))
	case q.Language != "" && !slices.Contains(schemas.Languages, q.Language):
		return q, problemf(errInvalidInput, "language must be one of ro, it, en")
	}
	for _, name := range req.Tools { // the registry's names or Sanctum's IDs
		if _, ok := tools.Get(schemas.ToolNamed(name)); !ok {
			return q, problemf(errInvalidInput, "no tool "+name+"; GET /v1/tools lists them")
		}
		q.WebHints = q.WebHints || schemas.ToolNamed(name) == schemas.ToolWebSearch
	}
	if q.TopK == 0 {
		q.TopK = schemas.DefaultQueryTopK
	}
	if q.Language == "" {
		q.Language = language.GuessOr(q.Question, defaultLanguage)
	}
	return q, nil
}
