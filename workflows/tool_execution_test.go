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

func newToolExecutionEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(ToolExecution)
	return env
}

// TestToolExecutionRunsTheToolBoundToTheCase: the run validates the arguments, fills
// the case the tool binds, asks for the raw result under the run's folder, and answers
// it with the text.
func TestToolExecutionRunsTheToolBoundToTheCase(t *testing.T) {
	env := newToolExecutionEnv()
	env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RunToolInput) (schemas.ToolOutput, error) {
			if !in.Raw || in.ResultKey != "cases/c1/tool-runs/r1/get_case_details.json" || !strings.Contains(string(in.Args), `"case_id":"c1"`) {
				t.Errorf("RunTool input %+v", in)
			}
			return schemas.ToolOutput{Text: "the details", Raw: []byte(`{"status":"success"}`)}, nil
		})
	env.ExecuteWorkflow(ToolExecution, schemas.ToolExecution{ID: "r1", Tool: schemas.ToolGetCaseDetails, Args: []byte(`{"extra": 1}`),
		CaseID: "c1", UserID: "alice", Language: "ro"})
	var res schemas.ToolExecutionResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != schemas.ToolOK || res.Text != "the details" || string(res.Result) != `{"status":"success"}` ||
		res.Args["case_id"] != "c1" || len(res.Dropped) != 1 {
		t.Errorf("result %+v", res)
	}
}

// TestToolExecutionOnNoCaseLeavesTheLanguageToTheTool: a run on no case has no
// language to bind a search's language from; the argument stays out.
func TestToolExecutionOnNoCaseLeavesTheLanguageToTheTool(t *testing.T) {
	env := newToolExecutionEnv()
	env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(schemas.ToolOutput{Text: "found"}, nil)
	env.ExecuteWorkflow(ToolExecution, schemas.ToolExecution{ID: "r", Tool: schemas.ToolLexSearch, Args: []byte(`{"query": "locațiune"}`)})
	var res schemas.ToolExecutionResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Args["language"]; ok {
		t.Errorf("args %v bind an empty language", res.Args)
	}
}

// TestToolExecutionRefuses: arguments that break the schema, name another case, or a
// tool no activity runs on its own fail the run as invalid, and no tool runs.
func TestToolExecutionRefuses(t *testing.T) {
	for name, in := range map[string]schemas.ToolExecution{
		"schema":         {ID: "r", Tool: schemas.ToolKBSearch, Args: []byte(`{"query": 3}`)},
		"another case":   {ID: "r", Tool: schemas.ToolGetCaseDetails, Args: []byte(`{"case_id": "c2"}`), CaseID: "c1"},
		"child workflow": {ID: "r", Tool: schemas.ToolGenerateDraftPDF, Args: []byte(`{}`), CaseID: "c1"},
		"unknown":        {ID: "r", Tool: "rm_rf", Args: []byte(`{}`)},
		"too large":      {ID: "r", Tool: schemas.ToolKBSearch, Args: []byte(`{"query": "` + strings.Repeat("a", schemas.MaxToolArgsBytes) + `"}`)},
	} {
		t.Run(name, func(t *testing.T) {
			env := newToolExecutionEnv()
			env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(
				func(context.Context, schemas.RunToolInput) (schemas.ToolOutput, error) {
					t.Error("the tool ran")
					return schemas.ToolOutput{}, nil
				}).Maybe()
			env.ExecuteWorkflow(ToolExecution, in)
			var app *temporal.ApplicationError
			if err := env.GetWorkflowError(); !errors.As(err, &app) || app.Type() != schemas.ErrInvalidArgs {
				t.Errorf("error %v, want %s", err, schemas.ErrInvalidArgs)
			}
		})
	}
}

// TestToolExecutionAnswersAFailure: a tool that fails after its retries is a result
// the admin reads, not a failed run.
func TestToolExecutionAnswersAFailure(t *testing.T) {
	env := newToolExecutionEnv()
	env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(schemas.ToolOutput{},
		temporal.NewNonRetryableApplicationError("corpus unreachable", "Unavailable", nil))
	env.ExecuteWorkflow(ToolExecution, schemas.ToolExecution{ID: "r", Tool: schemas.ToolKBSearch, Args: []byte(`{"query": "locațiune"}`)})
	var res schemas.ToolExecutionResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != schemas.ToolFailed || res.Error != "corpus unreachable" || res.Text == "" {
		t.Errorf("result %+v", res)
	}
}
