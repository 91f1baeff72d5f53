package workflows

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

// TestLadderNamesTheFailedStepToModelsOnly: a draft whose recording in case_details
// fails climbs the ladder. What the reasoner reads names the step as seed 003 does
// ("Store update failed", its "Firestore update failed") before the reason, and so do
// the escalation and the tool's summary that support reads; the client reads the
// case's sentence, even when the reasoner's question names the step.
func TestLadderNamesTheFailedStepToModelsOnly(t *testing.T) {
	in := turnIn
	in.Message = "draft the formal notice"
	in.Selection = schemas.Selection{Tools: []string{schemas.ToolGenerateDraftPDF}}
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolGenerateDraftPDF, `{"markdown_content": "# Notice", "draft_name": "Notice", "revision": 1}`),
		{Content: "never asked"},
	}}
	var consulted []schemas.ConsultReasonerArgs
	res := run(t, in, model, func(t *testing.T, env *testsuiteEnv) {
		env.RegisterWorkflow(Draft)
		env.RegisterActivity(&activities.Drafts{})
		env.OnActivity(researchActs.CheckText, mock.Anything, mock.Anything).Return(schemas.CitationReport{}, nil)
		env.OnActivity(draftActs.RenderDraft, mock.Anything, mock.Anything).Return(
			schemas.RenderDraftResult{Draft: schemas.RenderedDraft{DraftID: "Notice_rev1", DraftName: "Notice", Revision: 1}}, nil)
		env.OnActivity(draftActs.RecordDraft, mock.Anything, mock.Anything).Return(
			temporal.NewNonRetryableApplicationError("record the draft in case_details: connection reset", schemas.ErrInvalidArgs, nil))
		env.OnActivity(casesActs.RecordEscalation, mock.Anything, mock.Anything).Return(nil)
		env.OnActivity(modelActs.ConsultReasoner, mock.Anything, mock.Anything).Return(
			func(_ context.Context, a schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
				consulted = append(consulted, a)
				return schemas.ConsultReasonerResult{Status: schemas.ResultSuccess,
					Response: `{"action": "ask_user", "question": "The store update failed: may I try again?"}`}, nil
			})
	})
	want := schemas.FailedStoreUpdate + ": record the draft in case_details: connection reset"
	if len(consulted) != 1 || !strings.Contains(consulted[0].ContextSummary, "Error: "+want) {
		t.Fatalf("the reasoner read %+v, want the error %q", consulted, want)
	}
	e := res.Escalation
	if e == nil || e.Rung != schemas.RungAskUser || !strings.HasPrefix(e.Error, schemas.FailedStoreUpdate+": ") {
		t.Errorf("escalation %+v, want the step named at ask_user", e)
	}
	if len(res.ToolsUsed) != 1 || !strings.Contains(res.ToolsUsed[0].Summary, "[Tool generate_draft_pdf failed: "+want) {
		t.Errorf("tools_used = %+v, want the failure naming its step", res.ToolsUsed)
	}
	lw := caseWordsFor("en")
	if res.Reply != lw.askUser {
		t.Errorf("the client read %q, want the case's sentence %q", res.Reply, lw.askUser)
	}
	for _, s := range schemas.FailedSteps {
		if strings.Contains(strings.ToLower(res.Reply), strings.ToLower(s)) {
			t.Errorf("the client's reply %q names the step %q", res.Reply, s)
		}
	}
}

// TestStepFailedKeepsTheActivitysStep: an activity's reason that names its step is
// kept; one that does not, a timeout's, gets the workflow's step before it.
func TestStepFailedKeepsTheActivitysStep(t *testing.T) {
	named := temporal.NewApplicationError(schemas.FailedDraftUpload+": store the PDF: disk full", "")
	if got := failureReason(stepFailed(schemas.FailedDraftRender, named)); got != schemas.FailedDraftUpload+": store the PDF: disk full" {
		t.Errorf("a named step became %q", got)
	}
	timeout := temporal.NewTimeoutError(0, nil)
	if got := failureReason(stepFailed(schemas.FailedDraftRender, timeout)); got != schemas.FailedDraftRender+": timed out" {
		t.Errorf("a timeout became %q, want the render step named", got)
	}
}
