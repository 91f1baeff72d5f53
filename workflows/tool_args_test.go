package workflows

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
)

// TestToolExecutionWritesArgsFromAQuery: asked a question, the run has the tool_args
// model write legal_sql's arguments, offered that tool alone and charged to the
// run's tenant, and validates them as a model's call: an argument the schema does not
// know is dropped, and a statement against it fails the run before the tool runs.
func TestToolExecutionWritesArgsFromAQuery(t *testing.T) {
	for _, c := range []struct {
		name, args string
		invalid    bool
	}{
		{"valid", `{"query_string":"SELECT COUNT(*) FROM legislatie","table_name":"legislatie","extra":1}`, false},
		{"against the schema", `{"query_string":"SELECT 1","table_name":"users"}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := newToolExecutionEnv()
			env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
				func(_ context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
					if req.Role != schemas.ModelToolArgs || req.Tenant != "o:acme" || len(req.Tools) != 1 || req.Tools[0] != schemas.ToolLegalSQL ||
						req.Messages[0].Content != "How many acts?" {
						t.Errorf("model request %+v", req)
					}
					return schemas.ModelResponse{ToolCalls: []schemas.ToolCall{{ID: "c", Name: schemas.ToolLegalSQL, Arguments: c.args}}}, nil
				})
			ran := false
			env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(
				func(context.Context, schemas.RunToolInput) (schemas.ToolOutput, error) {
					ran = true
					return schemas.ToolOutput{Text: "1 row"}, nil
				})
			env.ExecuteWorkflow(ToolExecution, schemas.ToolExecution{ID: "r", Tool: schemas.ToolLegalSQL, Query: "How many acts?", Tenant: "o:acme"})
			var res schemas.ToolExecutionResult
			err := env.GetWorkflowResult(&res)
			var app *temporal.ApplicationError
			switch {
			case c.invalid && (!errors.As(err, &app) || app.Type() != schemas.ErrInvalidArgs || ran):
				t.Errorf("invalid arguments: %v, ran %v", err, ran)
			case !c.invalid && (err != nil || !ran || res.Args["query_string"] != "SELECT COUNT(*) FROM legislatie" || len(res.Dropped) != 1):
				t.Errorf("result %+v, %v", res, err)
			}
		})
	}
}

// TestWriteArgsNeedsACall: a model that answers in words, or calls another tool,
// fails the run with ErrInvalidArgs; a tool that takes a query gets the question
// without any model call.
func TestWriteArgsNeedsACall(t *testing.T) {
	env := newToolExecutionEnv()
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
		schemas.ModelResponse{Content: "I would rather not.", ToolCalls: []schemas.ToolCall{{ID: "c", Name: schemas.ToolWebSearch, Arguments: `{"query":"x"}`}}}, nil)
	env.ExecuteWorkflow(ToolExecution, schemas.ToolExecution{ID: "r", Tool: schemas.ToolLegalSQL, Query: "Drop everything"})
	var app *temporal.ApplicationError
	if err := env.GetWorkflowError(); !errors.As(err, &app) || app.Type() != schemas.ErrInvalidArgs {
		t.Errorf("no call of the tool: %v", err)
	}

	env = newToolExecutionEnv()
	env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(schemas.ToolOutput{Text: "found"}, nil)
	env.ExecuteWorkflow(ToolExecution, schemas.ToolExecution{ID: "r", Tool: schemas.ToolKBSearch, Query: "locațiune"})
	var res schemas.ToolExecutionResult
	if err := env.GetWorkflowResult(&res); err != nil || res.Args["query"] != "locațiune" {
		t.Errorf("kb_search: %+v, %v", res, err)
	}
}
