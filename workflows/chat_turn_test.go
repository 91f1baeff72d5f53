package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"log/slog"
	"os"

	"github.com/stretchr/testify/mock"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// hasErrorType reports whether an application error of type typ is in err's chain.
func hasErrorType(err error, typ string) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		var appErr *temporal.ApplicationError
		if errors.As(err, &appErr) && appErr.Type() == typ {
			return true
		}
		if appErr != nil {
			err = appErr
		}
	}
	return false
}

type testsuiteEnv = testsuite.TestWorkflowEnvironment

// newTurnEnv is a ChatTurn's test environment. Its RunTool activity runs no tool: a
// test mocks the tools its turn calls with onTool.
func newTurnEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	s.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(&activities.Cases{})
	env.RegisterActivity(&activities.Transcript{})
	env.RegisterActivity(&activities.Model{})
	env.RegisterActivity(&activities.Research{})
	env.RegisterActivity(&activities.ToolRunner{})
	env.RegisterActivity(&activities.Tickets{})
	env.OnActivity(transcriptActs.RecordUserMessage, mock.Anything, mock.Anything).Return(nil)
	env.OnActivity(researchActs.CheckCitations, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.CheckCitations) (schemas.CheckedReply, error) {
			return schemas.CheckedReply{Reply: in.Reply, Citations: []schemas.Citation{}}, nil
		}).Maybe()
	return env
}

var turnIn = schemas.ChatTurnInput{CaseID: "c1", UserID: "alice", TurnID: "case:c1:turn:1", TurnNo: 1,
	Message: "show me the case details", Language: "en", MaxSteps: 5,
	Selection: schemas.Selection{Tools: []string{schemas.ToolGetCaseDetails, schemas.ToolUpdateCaseDetails}}}

func callTool(name, args string) schemas.ModelResponse {
	return schemas.ModelResponse{ToolCalls: []schemas.ToolCall{{ID: "call_1", Name: name, Arguments: args}}, FinishReason: "tool_calls"}
}

// scriptedModel answers model calls in order and records the requests.
type scriptedModel struct {
	replies  []schemas.ModelResponse
	requests []schemas.ModelRequest
}

// onTool mocks the RunTool activity for the calls of tool: fn, the tool's own function
// (func(context.Context, Args) (Result, error)), runs with the call's decoded
// arguments, and its result is formatted for the model as RunTool formats it.
func onTool(env *testsuite.TestWorkflowEnvironment, tool string, fn any) *testsuite.MockCallWrapper {
	ofTool := mock.MatchedBy(func(in schemas.RunToolInput) bool { return in.Tool == tool })
	return env.OnActivity(toolActs.RunTool, mock.Anything, ofTool).Return(
		func(ctx context.Context, in schemas.RunToolInput) (schemas.ToolOutput, error) {
			t, _ := tools.Get(in.Tool)
			var args map[string]any
			if err := json.Unmarshal(in.Args, &args); err != nil {
				return schemas.ToolOutput{}, err
			}
			typed, err := t.Decode(args)
			if err != nil {
				return schemas.ToolOutput{}, err
			}
			out := reflect.ValueOf(fn).Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(typed)})
			if err, _ := out[1].Interface().(error); err != nil {
				return schemas.ToolOutput{}, err
			}
			raw, err := json.Marshal(out[0].Interface())
			if err != nil {
				return schemas.ToolOutput{}, err
			}
			return Format(t, raw), nil
		})
}

func (m *scriptedModel) call(_ context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
	m.requests = append(m.requests, req)
	i := min(len(m.requests), len(m.replies)) - 1
	return m.replies[i], nil
}

func TestChatTurnRunsToolAndCitesIt(t *testing.T) {
	env := newTurnEnv(t)
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolGetCaseDetails, `{}`),
		{Content: "Summary: deposit.\n\nSources: get_case_details", FinishReason: "stop"},
	}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	var gotArgs schemas.GetCaseDetailsArgs
	onTool(env, schemas.ToolGetCaseDetails,
		func(_ context.Context, a schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
			gotArgs = a
			return schemas.GetCaseDetailsResult{Status: "success", CaseDetails: map[string]any{"summary": "deposit"}}, nil
		})
	var recorded schemas.RecordTurn
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RecordTurn) error { recorded = in; return nil })

	env.ExecuteWorkflow(ChatTurn, turnIn)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if gotArgs.CaseID != "c1" {
		t.Errorf("tool ran for case %q, want the turn's case c1", gotArgs.CaseID)
	}
	if len(res.ToolsUsed) != 1 || res.ToolsUsed[0].Tool != schemas.ToolGetCaseDetails || res.ToolsUsed[0].Status != schemas.ToolOK {
		t.Fatalf("tools_used = %+v", res.ToolsUsed)
	}
	if string(res.ToolsUsed[0].Args) != `{"case_id":"c1"}` || res.ToolsUsed[0].Summary == "" {
		t.Errorf("args = %s", res.ToolsUsed[0].Args)
	}
	if len(res.Sources) != 1 || !strings.Contains(res.Sources[0].Summary, "deposit") {
		t.Errorf("sources = %+v", res.Sources)
	}
	if res.Reply != "Summary: deposit.\n\nSources: get_case_details" || res.Steps != 2 {
		t.Errorf("reply = %q after %d steps", res.Reply, res.Steps)
	}
	if recorded.Result.Reply != res.Reply || recorded.TurnNo != 1 {
		t.Errorf("recorded turn = %+v", recorded)
	}
	// The second model call saw the tool's result, tied to its call.
	last := model.requests[1].Messages
	if len(last) != 3 || last[2].Role != schemas.MsgTool || last[2].ToolCallID != "call_1" || !strings.Contains(last[2].Content, "deposit") {
		t.Errorf("second request messages = %+v", last)
	}
}

func TestChatTurnToolFailureReachesModel(t *testing.T) {
	env := newTurnEnv(t)
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolUpdateCaseDetails, `{"updates":{"summary.current":"x"}}`),
		{Content: "I could not save that."},
	}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	attempts := 0
	onTool(env, schemas.ToolUpdateCaseDetails,
		func(context.Context, schemas.UpdateCaseDetailsArgs) (schemas.StatusResult, error) {
			attempts++
			return schemas.StatusResult{}, errors.New("store unreachable")
		})
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
	// The reasoner advises asking the client, who alone can unblock the case.
	env.OnActivity(modelActs.ConsultReasoner, mock.Anything, mock.Anything).Return(
		schemas.ConsultReasonerResult{Status: "success", Response: `{"action": "ask_user", "question": "May I try again later?"}`}, nil)

	env.ExecuteWorkflow(ChatTurn, turnIn)
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if attempts != 3 {
		t.Errorf("tool attempted %d times, want 3 (seed 003: retry up to 2 times)", attempts)
	}
	use := res.ToolsUsed[0]
	if use.Status != schemas.ToolFailed || use.Error != "store unreachable" {
		t.Errorf("tool use = %+v", use)
	}
	// The reasoner's question names no tool and no error: the client reads it.
	if len(model.requests) != 1 || res.Reply != "May I try again later?" || res.Escalation == nil ||
		res.Escalation.Rung != schemas.RungAskUser || res.Escalation.Error != "store unreachable" {
		t.Errorf("reply %q, escalation %+v", res.Reply, res.Escalation)
	}
	if len(res.Sources) != 0 {
		t.Errorf("a failed tool became a source: %+v", res.Sources)
	}
}

func TestChatTurnRefusesAnotherCase(t *testing.T) {
	env := newTurnEnv(t)
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolGetCaseDetails, `{"case_id":"someone-elses"}`),
		{Content: "No such case."},
	}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
	// No GetCaseDetails mock: running it would fail the test.

	env.ExecuteWorkflow(ChatTurn, turnIn)
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if use := res.ToolsUsed[0]; use.Status != schemas.ToolFailed || use.Error != schemas.CaseNotFound {
		t.Fatalf("tool use = %+v", use)
	}
	if got := model.requests[1].Messages[2].Content; got != "[Tool get_case_details failed: Case ID not found]" {
		t.Errorf("model was shown %q", got)
	}
}

func TestChatTurnStopsAtMaxSteps(t *testing.T) {
	env := newTurnEnv(t)
	model := &scriptedModel{replies: []schemas.ModelResponse{callTool(schemas.ToolGetCaseDetails, `{}`)}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	onTool(env, schemas.ToolGetCaseDetails, func(context.Context, schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
		return schemas.GetCaseDetailsResult{Status: "success"}, nil
	})
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)

	in := turnIn
	in.MaxSteps = 3
	env.ExecuteWorkflow(ChatTurn, in)
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if len(model.requests) != 3 || res.Steps != 3 || len(res.ToolsUsed) != 2 {
		t.Fatalf("%d model calls, %d steps, %d tool calls; want 3, 3, 2", len(model.requests), res.Steps, len(res.ToolsUsed))
	}
	if len(model.requests[2].Tools) != 0 || len(model.requests[0].Tools) != 2 {
		t.Errorf("tools offered per step: %v, %v, %v; want none on the last", model.requests[0].Tools, model.requests[1].Tools, model.requests[2].Tools)
	}
	if res.Reply == "" {
		t.Error("empty reply")
	}
}

func TestChatTurnModelErrors(t *testing.T) {
	t.Run("rejected request is not retried", func(t *testing.T) {
		env := newTurnEnv(t)
		calls := 0
		env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
			func(context.Context, schemas.ModelRequest) (schemas.ModelResponse, error) {
				calls++
				return schemas.ModelResponse{}, temporal.NewNonRetryableApplicationError("model endpoint answered 401", schemas.ErrModelRejected, nil)
			})
		var failed []schemas.RecordTurnFailed
		env.OnActivity(transcriptActs.RecordTurnFailed, mock.Anything, mock.Anything).Return(
			func(_ context.Context, in schemas.RecordTurnFailed) error { failed = append(failed, in); return nil })
		env.ExecuteWorkflow(ChatTurn, turnIn)
		if err := env.GetWorkflowError(); !hasErrorType(err, schemas.ErrModelRejected) {
			t.Fatalf("workflow error = %v, want ModelRejected", err)
		}
		if calls != 1 {
			t.Errorf("model called %d times, want 1", calls)
		}
		if len(failed) != 1 || failed[0].TurnID != turnIn.TurnID || failed[0].Reason != "model endpoint answered 401" {
			t.Errorf("turn.failed published as %+v, want once with the model's refusal", failed)
		}
	})
	t.Run("rate limiting is retried", func(t *testing.T) {
		env := newTurnEnv(t)
		calls := 0
		env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(
			func(context.Context, schemas.ModelRequest) (schemas.ModelResponse, error) {
				calls++
				if calls < 3 {
					return schemas.ModelResponse{}, errors.New("model endpoint answered 429")
				}
				return schemas.ModelResponse{Content: "hello"}, nil
			})
		env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
		env.ExecuteWorkflow(ChatTurn, turnIn)
		var res schemas.TurnResult
		if err := env.GetWorkflowResult(&res); err != nil || res.Reply != "hello" || calls != 3 {
			t.Fatalf("result %+v, error %v after %d calls", res, err, calls)
		}
	})
}

// TestChatTurnClaimCheck: a turn runs an activity tool through RunTool, naming the
// blob key of the call's result, and reports the reference of a large result.
func TestChatTurnClaimCheck(t *testing.T) {
	env := newTurnEnv(t)
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolGetCaseDetails, `{}`),
		callTool(schemas.ToolGetCaseDetails, `{}`),
		{Content: "Done."},
	}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
	var keys []string
	env.OnActivity(toolActs.RunTool, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RunToolInput) (schemas.ToolOutput, error) {
			keys = append(keys, in.ResultKey)
			if !strings.Contains(string(in.Args), `"case_id":"c1"`) {
				t.Errorf("RunTool args %s lack the bound case", in.Args)
			}
			return schemas.ToolOutput{Text: "big result, bounded", Ref: in.ResultKey}, nil
		})
	env.ExecuteWorkflow(ChatTurn, turnIn)
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	want := []string{"cases/c1/results/turn-1/call-1-get_case_details.json", "cases/c1/results/turn-1/call-2-get_case_details.json"}
	if !slices.Equal(keys, want) {
		t.Errorf("result keys %v, want %v", keys, want)
	}
	if use := res.ToolsUsed[1]; use.Status != schemas.ToolOK || use.ResultRef != want[1] || use.Summary != "big result, bounded" {
		t.Errorf("tool use = %+v", use)
	}
}

// TestChatTurnSendsTheProviderEchoBack: what a provider asks to be sent back with a
// tool-calling reply (a Gemini thought signature, DeepSeek's reasoning) goes back on
// that assistant message in the turn's next model call.
func TestChatTurnSendsTheProviderEchoBack(t *testing.T) {
	env := newTurnEnv(t)
	withEcho := callTool(schemas.ToolGetCaseDetails, `{}`)
	withEcho.Echo = json.RawMessage(`{"provider":"gemini","calls":["sig-1"]}`)
	model := &scriptedModel{replies: []schemas.ModelResponse{withEcho, {Content: "Done.", FinishReason: "stop"}}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	onTool(env, schemas.ToolGetCaseDetails,
		func(_ context.Context, a schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
			return schemas.GetCaseDetailsResult{Status: "success", CaseDetails: map[string]any{"summary": "deposit"}}, nil
		})
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
	env.ExecuteWorkflow(ChatTurn, turnIn)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(model.requests) != 2 {
		t.Fatalf("%d model calls, want 2", len(model.requests))
	}
	var echoed json.RawMessage
	for _, m := range model.requests[1].Messages {
		if m.Role == schemas.MsgAssistant && len(m.ToolCalls) > 0 {
			echoed = m.Echo
		}
	}
	if string(echoed) != string(withEcho.Echo) {
		t.Errorf("the second call's assistant message echoes %s, want %s", echoed, withEcho.Echo)
	}
}
