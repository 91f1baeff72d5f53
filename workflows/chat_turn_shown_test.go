package workflows

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"

	"github.com/lexflow/lexflow/schemas"
)

// TestChatTurnRecordsWhatTheModelRead: the transcript gets the whole text the model
// read of each result (RecordTurn.Shown), a 3,000-character plan from the reasoner
// whole where tools_used keeps its 900-character summary, and the turn's result
// carries no more than the summary out of the turn.
func TestChatTurnRecordsWhatTheModelRead(t *testing.T) {
	env := newTurnEnv(t)
	plan := strings.Repeat("Step: cite art. 1357 Codul civil, then draft the notice. ", 60)[:3000]
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolConsultReasoner, `{"context_summary": "deposit kept", "specific_question": "plan?"}`),
		callTool(schemas.ToolGetCaseDetails, `{}`), {Content: "Done."}}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	onTool(env, schemas.ToolConsultReasoner, func(context.Context, schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
		return schemas.ConsultReasonerResult{Status: schemas.ResultSuccess, Response: plan}, nil
	})
	okDetails(env)
	var recorded schemas.RecordTurn
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RecordTurn) error { recorded = in; return nil })
	in := turnIn
	in.Selection.Tools = []string{schemas.ToolConsultReasoner, schemas.ToolGetCaseDetails}
	env.ExecuteWorkflow(ChatTurn, in)
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if len(recorded.Shown) != 2 || len(recorded.Result.ToolsUsed) != 2 {
		t.Fatalf("RecordTurn got %d shown texts for %d calls", len(recorded.Shown), len(recorded.Result.ToolsUsed))
	}
	if got := recorded.Shown[0]; !strings.HasSuffix(got, plan) || got != model.requests[1].Messages[2].Content {
		t.Errorf("the plan recorded (%d characters) is not what the model read whole", len(got))
	}
	if !strings.Contains(recorded.Shown[1], "summary: \"deposit\"") {
		t.Errorf("the case file recorded = %q", recorded.Shown[1])
	}
	if s := res.ToolsUsed[0].Summary; len([]rune(s)) != 901 || res.ToolsUsed[0].Shown != "" {
		t.Errorf("tools_used keeps a summary of %d characters and a shown text of %d; want 900 and an ellipsis, and none",
			len([]rune(s)), len(res.ToolsUsed[0].Shown))
	}
}
