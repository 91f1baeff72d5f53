package workflows

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
)

// TestChatTurnRunsItsOwnStepsLocally: a turn records the user's message, checks its
// reply's citations and records the turn as local activities, and runs model and tool
// calls as activities.
func TestChatTurnRunsItsOwnStepsLocally(t *testing.T) {
	env := newTurnEnv(t)
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolGetCaseDetails, `{}`),
		{Content: "Summary: deposit.", FinishReason: "stop"},
	}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(schemas.ToolOutput{Text: "deposit"}, nil)
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
	var local, acts []string
	env.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
		local = append(local, info.ActivityType.Name)
	})
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		acts = append(acts, info.ActivityType.Name)
	})
	env.ExecuteWorkflow(ChatTurn, turnIn)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	wantLocal, wantAct := []string{"RecordUserMessage", "CheckCitations", "RecordTurn"}, []string{"CallModel", "RunTool", "CallModel"}
	if !slices.Equal(local, wantLocal) || !slices.Equal(acts, wantAct) {
		t.Errorf("local activities %v, activities %v; want %v and %v", local, acts, wantLocal, wantAct)
	}
}

// TestChatTurnLocalStepFallsBackToAnActivity: a turn's own step that keeps failing as a
// local activity runs as an activity after localStepBudget, whose retries the server
// schedules; one refused for good (invalid arguments) fails the turn at once.
func TestChatTurnLocalStepFallsBackToAnActivity(t *testing.T) {
	for _, tc := range []struct {
		name     string
		localErr error
		wantErr  bool
		wantActs int
	}{
		{"a store down", errors.New("store unreachable"), false, 1},
		{"a record refused", temporal.NewNonRetryableApplicationError("refused", schemas.ErrInvalidArgs, nil), true, 0},
	} {
		env := newTurnEnv(t)
		model := &scriptedModel{replies: []schemas.ModelResponse{{Content: "Summary.", FinishReason: "stop"}}}
		env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
		env.OnActivity(transcriptActs.RecordTurnFailed, mock.Anything, mock.Anything).Return(nil).Maybe()
		locals, acts := 0, 0
		env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(
			func(ctx context.Context, _ schemas.RecordTurn) error {
				if activity.GetInfo(ctx).IsLocalActivity {
					locals++
					return tc.localErr
				}
				acts++
				return nil
			})
		env.ExecuteWorkflow(ChatTurn, turnIn)
		if err := env.GetWorkflowError(); (err != nil) != tc.wantErr {
			t.Errorf("%s: turn error %v; want an error: %v", tc.name, err, tc.wantErr)
		}
		if acts != tc.wantActs || locals == 0 || (!tc.wantErr && locals < 2) {
			t.Errorf("%s: %d local attempts, %d activities; want %d activities after the local attempts", tc.name, locals, acts, tc.wantActs)
		}
	}
}
