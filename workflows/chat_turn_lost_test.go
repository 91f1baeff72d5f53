package workflows

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
)

// TestChatTurnRerunsStepsLostWithTheirWorker: a model call whose every attempt timed
// out on its heartbeat (its worker killed each time) runs again as a new activity, at
// most maxLostSteps times a turn.
func TestChatTurnRerunsStepsLostWithTheirWorker(t *testing.T) {
	attempts := int(modelOptions.RetryPolicy.MaximumAttempts)
	for _, tc := range []struct {
		name    string
		lose    int // model calls that time out on their heartbeat before one answers
		wantErr bool
		calls   int // model calls made in all
	}{
		{name: "lost once, run again", lose: attempts, calls: attempts + 2},
		{name: "lost three times", lose: 3 * attempts, calls: 3*attempts + 2},
		{name: "lost past the bound", lose: 1000, wantErr: true, calls: (maxLostSteps + 1) * attempts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newTurnEnv(t)
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

// TestChatTurnRerunsLostToolsWithTheirOp: a tool lost with its worker runs again under
// the same op, so its writes apply once; a tool whose policy allows no retry is not run
// again, and climbs the ladder as before.
func TestChatTurnRerunsLostToolsWithTheirOp(t *testing.T) {
	lost := temporal.NewTimeoutError(enums.TIMEOUT_TYPE_HEARTBEAT, nil)
	for _, tc := range []struct {
		tool, args string
		wantRuns   int
	}{
		{schemas.ToolGetCaseDetails, `{}`, 3 + 1}, // three attempts lost, one run again
		{schemas.ToolNormattivaSearch, `{"act_type": "decreto legislativo", "date": "2003-06-30", "act_number": "196"}`, 1}, // one attempt, not run again
	} {
		env := newTurnEnv(t)
		model := &scriptedModel{replies: []schemas.ModelResponse{
			callTool(tc.tool, tc.args),
			{Content: "Done.", FinishReason: "stop"},
		}}
		env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
		env.OnActivity(modelActs.ConsultReasoner, mock.Anything, mock.Anything).Return(schemas.ConsultReasonerResult{Status: schemas.ResultError}, nil).Maybe()
		var ops []string
		env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(
			func(_ context.Context, in schemas.RunToolInput) (schemas.ToolOutput, error) {
				ops = append(ops, in.Op)
				if len(ops) <= 3 {
					return schemas.ToolOutput{}, lost
				}
				return schemas.ToolOutput{Text: "ok"}, nil
			})
		env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
		in := turnIn
		in.Selection.Tools = []string{tc.tool}
		env.ExecuteWorkflow(ChatTurn, in)
		if err := env.GetWorkflowError(); err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		if len(ops) != tc.wantRuns {
			t.Errorf("%s ran %d times, want %d", tc.tool, len(ops), tc.wantRuns)
		}
		for _, op := range ops {
			if op != ops[0] || !strings.HasSuffix(op, "/tool-1") {
				t.Errorf("%s: ops %q; want one op for the call, ending in /tool-1", tc.tool, ops)
				break
			}
		}
	}
}
