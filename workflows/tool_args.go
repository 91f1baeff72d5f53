package workflows

import (
	"encoding/json"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// toolArgsModelOptions govern the model call that writes a tool's arguments from a
// question: 2 × 75 s + 1 s at most (schemas.ToolArgsWait).
var toolArgsModelOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 75 * time.Second,
	HeartbeatTimeout:    10 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: 2,
		NonRetryableErrorTypes: []string{schemas.ErrModelRejected, schemas.ErrInvalidArgs}},
	Summary: "Model call (tool arguments)",
}

// writeArgs gives tool's JSON arguments for a natural-language question, as
// Sanctum's {tool_id, query} asks: the question itself as the query of a tool that
// needs no more (tools.TakesQuery), else the arguments the tool_args model writes
// when offered the tool alone, its tokens charged to tenant outside a case. The
// arguments are not validated here: they go through prepare as a model's call does.
// A model that writes no call of the tool fails with ErrInvalidArgs.
func writeArgs(ctx workflow.Context, tool *tools.Tool, question, language, tenant string) (json.RawMessage, error) {
	if tool.TakesQuery() {
		return mustJSON(map[string]any{"query": question}), nil
	}
	req := schemas.ModelRequest{Role: schemas.ModelToolArgs, Language: language, Tenant: tenant, Tools: []string{tool.Name},
		Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: question}}}
	var resp schemas.ModelResponse
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, toolArgsModelOptions), modelActs.CallModel, req).Get(ctx, &resp); err != nil {
		return nil, err
	}
	for _, c := range resp.ToolCalls {
		if c.Name == tool.Name {
			return json.RawMessage(c.Arguments), nil
		}
	}
	return nil, temporal.NewNonRetryableApplicationError("the model wrote no call of "+tool.Name+" for the question: "+
		tools.Clip(resp.Content, 300), schemas.ErrInvalidArgs, nil)
}
