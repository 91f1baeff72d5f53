package workflows

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/schemas"
)

func newChatEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(Chat)
	return env
}

// TestChatRunsToolsBeforeTheModel: each named tool runs first with the message as its
// question; one that fails is reported and the model reads its failure; the one model
// call reads the message, the tools' texts and the admin's context, for the tenant.
func TestChatRunsToolsBeforeTheModel(t *testing.T) {
	env := newChatEnv()
	env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RunToolInput) (schemas.ToolOutput, error) {
			if in.Tool == schemas.ToolKBSearch {
				return schemas.ToolOutput{}, temporal.NewNonRetryableApplicationError("kb down", "KBDown", nil)
			}
			if !strings.Contains(string(in.Args), `"query":"GDPR fines"`) || in.ResultKey != "chats/m1/web_search.json" {
				t.Errorf("RunTool %+v", in)
			}
			return schemas.ToolOutput{Text: "Fine of 1.2 billion"}, nil
		})
	calls := 0
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
		func(_ context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
			calls++
			msg := req.Messages[0].Content
			if req.Role != schemas.ModelChat || req.Tenant != "o:acme" || len(req.Tools) != 0 ||
				!strings.Contains(msg, "Message: GDPR fines") || !strings.Contains(msg, "[web_search]\nFine of 1.2 billion") ||
				!strings.Contains(msg, "[kb_search]\n[Tool kb_search failed: ") || !strings.Contains(msg, "[tool_context]\nrows") {
				t.Errorf("model request %+v", req)
			}
			return schemas.ModelResponse{Content: " The answer. ", Model: "m", Provider: "vllm"}, nil
		})
	env.ExecuteWorkflow(Chat, schemas.Chat{ID: "m1", Message: "GDPR fines", Tools: []string{schemas.ToolWebSearch, schemas.ToolKBSearch},
		ToolContext: "rows", Language: "en", Tenant: "o:acme"})
	var out schemas.ChatAnswer
	if err := env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if calls != 1 || out.Message != "The answer." || out.Model != "m" || out.Provider != "vllm" || len(out.ToolsUsed) != 2 ||
		out.ToolsUsed[0].Status != schemas.ToolOK || out.ToolsUsed[1].Status != schemas.ToolFailed || out.ToolsUsed[1].Error == "" {
		t.Errorf("answer %+v (%d model calls)", out, calls)
	}
}

// TestChatEndsOnAUsedUpBudget: a budget used up while a tool's arguments are written
// fails the chat with ErrBudgetExhausted, and nothing else runs.
func TestChatEndsOnAUsedUpBudget(t *testing.T) {
	env := newChatEnv()
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(schemas.ModelResponse{},
		temporal.NewNonRetryableApplicationError("budget", schemas.ErrBudgetExhausted, nil, schemas.BudgetExhausted{Scope: schemas.BudgetTenant})).Once()
	env.ExecuteWorkflow(Chat, schemas.Chat{ID: "m2", Message: "How many acts?", Tools: []string{schemas.ToolLegalSQL}, Tenant: "o:acme"})
	var app *temporal.ApplicationError
	if err := env.GetWorkflowError(); !errors.As(err, &app) || app.Type() != schemas.ErrBudgetExhausted {
		t.Errorf("error %v", err)
	}
	env.AssertExpectations(t)
}

// TestChatKeepsNoOversizedArguments: arguments the model wrote past the limit are
// refused, and the answer says how long they were instead of carrying them.
func TestChatKeepsNoOversizedArguments(t *testing.T) {
	env := newChatEnv()
	huge := `{"query_string":"SELECT '` + strings.Repeat("a", schemas.MaxToolArgsBytes) + `'","table_name":"legislatie"}`
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
		func(_ context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
			if req.Role == schemas.ModelToolArgs {
				return schemas.ModelResponse{ToolCalls: []schemas.ToolCall{{ID: "c", Name: schemas.ToolLegalSQL, Arguments: huge}}}, nil
			}
			return schemas.ModelResponse{Content: "answer"}, nil
		})
	env.ExecuteWorkflow(Chat, schemas.Chat{ID: "m3", Message: "Everything", Tools: []string{schemas.ToolLegalSQL}, Tenant: "o:acme"})
	var out schemas.ChatAnswer
	if err := env.GetWorkflowResult(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.ToolsUsed) != 1 || out.ToolsUsed[0].Status != schemas.ToolInvalid || len(out.ToolsUsed[0].Args) > 200 {
		t.Errorf("tools_used %v", out.ToolsUsed)
	}
}
