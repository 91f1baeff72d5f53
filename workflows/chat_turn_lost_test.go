package workflows

import (
	"context"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// TestChatTurnRerunsStepsLostWithTheirWorker checks changeRerunLostSteps: a model call
// whose every attempt timed out on its heartbeat (its worker killed each time) runs
// again as a new activity, at most maxLostSteps times a turn; a turn started before
// the change fails at once, as its history holds.
func TestChatTurnRerunsStepsLostWithTheirWorker(t *testing.T) {
	attempts := int(modelOptions.RetryPolicy.MaximumAttempts)
	for _, tc := range []struct {
		name    string
		version workflow.Version
		lose    int // model calls that time out on their heartbeat before one answers
		wantErr bool
		calls   int // model calls made in all
	}{
		{name: "lost once, run again", version: 1, lose: attempts, calls: attempts + 2},
		{name: "lost three times", version: 1, lose: 3 * attempts, calls: 3*attempts + 2},
		{name: "lost past the bound", version: 1, lose: 1000, wantErr: true, calls: (maxLostSteps + 1) * attempts},
		{name: "before the change", version: workflow.DefaultVersion, lose: attempts, wantErr: true, calls: attempts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newTurnEnvWithRunTool(t)
			env.OnGetVersion(changeRerunLostSteps, workflow.DefaultVersion, 1).Return(tc.version)
			model := &scriptedModel{replies: []schemas.ModelResponse{
				callTool(schemas.ToolGetCaseDetails, `{}`),
				{Content: "Summary: deposit.", FinishReason: "stop"},
			}}
			calls := 0
			env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
				func(ctx context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
					calls++
					if calls <= tc.lose {
						return schemas.ModelResponse{}, temporal.NewTimeoutError(enums.TIMEOUT_TYPE_HEARTBEAT, nil)
					}
					return model.call(ctx, req)
				})
			env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(schemas.ToolOutput{Text: "deposit"}, nil)
			env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil).Maybe()
			env.OnActivity(transcriptActs.RecordTurnFailed, mock.Anything, mock.Anything).Return(nil).Maybe()
			env.ExecuteWorkflow(ChatTurn, turnIn)
			if err := env.GetWorkflowError(); (err != nil) != tc.wantErr {
				t.Fatalf("turn error = %v; want an error: %v", err, tc.wantErr)
			}
			if calls != tc.calls {
				t.Errorf("model called %d times; want %d", calls, tc.calls)
			}
		})
	}
}
