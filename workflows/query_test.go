package workflows

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/schemas"
)

// TestQuery: the question's sources reach the model numbered, with the hints line; the
// answer is checked, and its search_term kept only with web hints on.
func TestQuery(t *testing.T) {
	for _, hints := range []bool{false, true} {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.OnActivity(researchActs.Retrieve, mock.Anything, mock.Anything).Return(
			[]schemas.QuerySource{{Tool: schemas.ToolKBSearch, Reference: "Cass. pen., Sez. VI, n. 1/2025", Excerpt: "Il peculato."}}, nil)
		env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
			func(_ context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
				msg := req.Messages[0].Content
				if req.Role != schemas.ModelQuery || req.Tenant != "org:acme" || !strings.Contains(msg, "[1] Cass. pen., Sez. VI, n. 1/2025 (kb_search)\nIl peculato.") ||
					strings.Contains(msg, "hints: on") != hints {
					t.Errorf("model request %+v", req)
				}
				return schemas.ModelResponse{Content: "```json\n" + `{"answer": "Vedi art. 2043 c.c.", "clarifying_questions": [" ", "Quando?", "a", "b", "c"], "search_term": " peculato  2026 "}` + "\n```", Model: "m"}, nil
			})
		env.OnActivity(researchActs.CheckCitations, mock.Anything, mock.Anything).Return(
			func(_ context.Context, in schemas.CheckCitations) (schemas.CheckedReply, error) {
				return schemas.CheckedReply{Reply: in.Reply + " [checked]", Citations: []schemas.Citation{{Text: "art. 2043 c.c."}}}, nil
			})
		env.ExecuteWorkflow(Query, schemas.Query{Question: "Peculato?", Language: "it", TopK: 5, WebHints: hints, Tenant: "org:acme"})
		var got schemas.QueryAnswer
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		wantTerm := map[bool]string{false: "", true: "peculato 2026"}[hints]
		if got.Answer != "Vedi art. 2043 c.c. [checked]" || len(got.Citations) != 1 || len(got.Sources) != 1 || got.SearchTerm != wantTerm ||
			strings.Join(got.ClarifyingQuestions, "|") != "Quando?|a|b" || got.Model != "m" {
			t.Errorf("hints %v: %+v", hints, got)
		}
	}
}

func TestParseQueryAnswer(t *testing.T) {
	got := parseQueryAnswer("  Just text, not JSON.  ", true)
	if got.Answer != "Just text, not JSON." || got.SearchTerm != "" || got.ClarifyingQuestions == nil {
		t.Errorf("plain text: %+v", got)
	}
	got = parseQueryAnswer(`Here is my answer: {"answer": "", "clarifying_questions": ["When was the lease signed?"]} Hope it helps.`, false)
	if got.Answer != "" || len(got.ClarifyingQuestions) != 1 {
		t.Errorf("questions only, amid words: %+v", got)
	}
}
