package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

func run(t *testing.T, in schemas.ChatTurnInput, model *scriptedModel, setup func(*testing.T, *testsuiteEnv)) schemas.TurnResult {
	t.Helper()
	env := newTurnEnv(t)
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil)
	if setup != nil {
		setup(t, env)
	}
	env.ExecuteWorkflow(ChatTurn, in)
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

func okDetails(env *testsuiteEnv) {
	onTool(env, schemas.ToolGetCaseDetails, func(context.Context, schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
		return schemas.GetCaseDetailsResult{Status: "success", CaseDetails: map[string]any{"summary": "deposit"}}, nil
	})
}

func TestChatTurnCorrectedCall(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolUpdateCaseDetails, `{"updates": "summary is now X"}`),
		callTool(schemas.ToolUpdateCaseDetails, `{"updates": {"summary.current": "X"}, "force": true}`),
		{Content: "Saved."},
	}}
	var ran schemas.UpdateCaseDetailsArgs
	res := run(t, turnIn, model, func(t *testing.T, env *testsuiteEnv) {
		onTool(env, schemas.ToolUpdateCaseDetails,
			func(_ context.Context, a schemas.UpdateCaseDetailsArgs) (schemas.StatusResult, error) {
				ran = a
				return schemas.StatusResult{Status: "success"}, nil
			})
	})
	if len(res.ToolsUsed) != 2 || res.ToolsUsed[0].Status != schemas.ToolInvalid || res.ToolsUsed[1].Status != schemas.ToolOK {
		t.Fatalf("tools_used = %+v", res.ToolsUsed)
	}
	want := `argument "updates" must be object, got a string`
	if res.ToolsUsed[0].Error != want {
		t.Errorf("invalid call error = %q, want %q", res.ToolsUsed[0].Error, want)
	}
	if got := model.requests[1].Messages[2].Content; !strings.Contains(got, want) || !strings.Contains(got, "Call it again") {
		t.Errorf("the model was told %q", got)
	}
	if ran.CaseID != "c1" || ran.Updates["summary.current"] != "X" {
		t.Errorf("corrected call ran with %+v", ran)
	}
	if d := res.ToolsUsed[1].Dropped; len(d) != 1 || d[0] != "force" {
		t.Errorf("dropped = %v, want [force]", d)
	}
}

func TestChatTurnTwiceInvalidCallEndsTheTurn(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolUpdateCaseDetails, `{}`),
		callTool(schemas.ToolUpdateCaseDetails, `{"updates": 3}`),
		{Content: "never asked"},
	}}
	res := run(t, turnIn, model, nil)
	if len(model.requests) != 2 {
		t.Errorf("model called %d times, want 2", len(model.requests))
	}
	if len(res.ToolsUsed) != 2 || res.ToolsUsed[1].Status != schemas.ToolInvalid {
		t.Fatalf("tools_used = %+v", res.ToolsUsed)
	}
	// The client reads a sentence; the reason is the tool use's, for support.
	if res.Reply != wordsFor("en").invalidTwice || strings.Contains(res.Reply, schemas.ToolUpdateCaseDetails) ||
		!strings.Contains(res.ToolsUsed[1].Error, `argument "updates" must be object, got an integer`) {
		t.Errorf("reply = %q, tool use %+v", res.Reply, res.ToolsUsed[1])
	}
}

func TestChatTurnToolTimeoutIsRetried(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{callTool(schemas.ToolGetCaseDetails, `{}`), {Content: "Done."}}}
	attempts := 0
	res := run(t, turnIn, model, func(t *testing.T, env *testsuiteEnv) {
		// The first attempt times out (the test environment does not enforce
		// start-to-close timeouts on mocks, so it reports one); the retry answers.
		onTool(env, schemas.ToolGetCaseDetails,
			func(context.Context, schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
				attempts++
				if attempts == 1 {
					return schemas.GetCaseDetailsResult{}, temporal.NewTimeoutError(enums.TIMEOUT_TYPE_START_TO_CLOSE, nil)
				}
				return schemas.GetCaseDetailsResult{Status: "success", CaseDetails: map[string]any{"a": 1}}, nil
			})
	})
	if use := res.ToolsUsed[0]; attempts != 2 || use.Status != schemas.ToolOK || !strings.Contains(use.Summary, "\na: 1") {
		t.Fatalf("after %d attempts, tool use = %+v", attempts, use)
	}
}

// TestChatTurnToolTimeoutInLexesWords: a search that times out on every attempt is
// told to the model as LEXE tells it, "[Tool kb_search failed: Timeout after 20000ms]",
// and the turn carries on.
func TestChatTurnToolTimeoutInLexesWords(t *testing.T) {
	in := turnIn
	in.Selection.Tools = []string{schemas.ToolKBSearch}
	model := &scriptedModel{replies: []schemas.ModelResponse{callTool(schemas.ToolKBSearch, `{"query": "deposito cauzionale"}`), {Content: "Done."}}}
	res := run(t, in, model, func(t *testing.T, env *testsuiteEnv) {
		onTool(env, schemas.ToolKBSearch, func(context.Context, schemas.KBSearchArgs) (json.RawMessage, error) {
			return nil, temporal.NewTimeoutError(enums.TIMEOUT_TYPE_START_TO_CLOSE, nil)
		})
	})
	const want = "[Tool kb_search failed: Timeout after 20000ms]"
	if use := res.ToolsUsed[0]; use.Summary != want || len(model.requests) != 2 || !strings.Contains(lastContent(model.requests[1]), want) {
		t.Errorf("tool use %+v; the model read %q", use, lastContent(model.requests[len(model.requests)-1]))
	}
}

// lastContent is the content of a request's last message.
func lastContent(req schemas.ModelRequest) string { return req.Messages[len(req.Messages)-1].Content }

func TestChatTurnFailureClimbsTheLadderToTheClient(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{callTool(schemas.ToolGetCaseDetails, `{}`), {Content: "never asked"}}}
	attempts := 0
	var consulted schemas.ConsultReasonerArgs
	var recorded []schemas.RecordEscalation
	res := run(t, turnIn, model, func(t *testing.T, env *testsuiteEnv) {
		env.OnActivity(casesActs.RecordEscalation, mock.Anything, mock.Anything).Return(
			func(_ context.Context, in schemas.RecordEscalation) error {
				recorded = append(recorded, in)
				return nil
			})
		onTool(env, schemas.ToolGetCaseDetails,
			func(context.Context, schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
				attempts++
				return schemas.GetCaseDetailsResult{}, temporal.NewNonRetryableApplicationError("permission denied", "Forbidden", nil)
			})
		env.OnActivity(modelActs.ConsultReasoner, mock.Anything, mock.Anything).Return(
			func(_ context.Context, a schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
				consulted = a
				return schemas.ConsultReasonerResult{Status: "success", Response: `{"action": "retry", "args": {}}`}, nil
			})
	})
	// The first call, then the reasoner's advised retry: both fail, so the client is asked.
	if attempts != 2 || len(model.requests) != 1 {
		t.Errorf("tool attempted %d times, model called %d times; want 2 and 1", attempts, len(model.requests))
	}
	if consulted.Purpose != schemas.ConsultPurposeEscalation || !strings.Contains(consulted.ContextSummary, "Error: permission denied") ||
		consulted.Escalation == nil || consulted.Escalation.Tool != schemas.ToolGetCaseDetails || consulted.Escalation.Rung != schemas.RungReasoner {
		t.Errorf("reasoner consulted with %+v (escalation %+v)", consulted, consulted.Escalation)
	}
	// The client is asked in a sentence that names neither the tool nor its error;
	// the escalation keeps both for support.
	e := res.Escalation
	if e == nil || e.Rung != schemas.RungAskUser || e.Tool != schemas.ToolGetCaseDetails || res.Reply != e.Question ||
		e.Question != caseWordsFor("en").askUser || e.Error != "permission denied" {
		t.Fatalf("escalation = %+v, reply %q", e, res.Reply)
	}
	// Each rung is recorded for case_details.escalation, once the turn ends.
	var rungs []string
	for _, r := range recorded {
		for _, a := range r.Attempts {
			if r.CaseID != turnIn.CaseID || a.Tool != schemas.ToolGetCaseDetails || a.Error != "permission denied" || a.At.IsZero() {
				t.Errorf("attempt %+v of case %s", a, r.CaseID)
			}
			rungs = append(rungs, a.Rung)
		}
	}
	if want := []string{schemas.RungReasoner, schemas.RungAdvice, schemas.RungAskUser}; !slices.Equal(rungs, want) || len(recorded) != 1 {
		t.Errorf("recorded rungs %q in %d writes, want %q in one", rungs, len(recorded), want)
	}
	if len(res.ToolsUsed) != 2 || res.ToolsUsed[1].Rung != schemas.RungAdvice || res.ToolsUsed[1].Status != schemas.ToolFailed {
		t.Errorf("tools_used = %+v", res.ToolsUsed)
	}
}

func TestChatTurnFollowsTheReasonersAdvice(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{callTool(schemas.ToolGetCaseDetails, `{}`), {Content: "Done."}}}
	attempts := 0
	res := run(t, turnIn, model, func(t *testing.T, env *testsuiteEnv) {
		onTool(env, schemas.ToolGetCaseDetails,
			func(context.Context, schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
				if attempts++; attempts == 1 {
					return schemas.GetCaseDetailsResult{}, temporal.NewNonRetryableApplicationError("store down", "Unavailable", nil)
				}
				return schemas.GetCaseDetailsResult{Status: "success", CaseDetails: map[string]any{"a": 1}}, nil
			})
		env.OnActivity(modelActs.ConsultReasoner, mock.Anything, mock.Anything).Return(
			schemas.ConsultReasonerResult{Status: "success", Response: "```json\n{\"action\": \"retry\"}\n```"}, nil)
	})
	if res.Escalation != nil || res.Reply != "Done.\n\nSources: get_case_details" {
		t.Fatalf("escalation = %+v, reply %q", res.Escalation, res.Reply)
	}
	if got := model.requests[1].Messages[2].Content; !strings.Contains(got, "\na: 1") {
		t.Errorf("model was shown %q, want the advised retry's result", got)
	}
}

func TestChatTurnCancelStopsTheRunningStep(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{callTool(schemas.ToolGetCaseDetails, `{}`), {Content: "never asked"}}}
	in := turnIn
	in.Language = "ro"
	res := run(t, in, model, func(t *testing.T, env *testsuiteEnv) {
		onTool(env, schemas.ToolGetCaseDetails, func(context.Context, schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
			return schemas.GetCaseDetailsResult{Status: "success"}, nil
		}).After(5 * time.Minute)
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(schemas.SignalCancelTurn, nil) }, 2*time.Second)
	})
	if !res.Cancelled || len(model.requests) != 1 {
		t.Fatalf("cancelled=%v after %d model calls", res.Cancelled, len(model.requests))
	}
	// The step that was running was cancelled: nothing came of it.
	if res.Reply != "Tura a fost anulată înainte de a se încheia." || res.ToolsUsed[0].Status != schemas.ToolFailed {
		t.Errorf("reply = %q, tool use %+v", res.Reply, res.ToolsUsed[0])
	}
}

// TestChatTurnCancelStopsRetries: a cancel that arrives while a tool's activity is
// being retried stops the retries at once; the ladder is not climbed.
func TestChatTurnCancelStopsRetries(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{callTool(schemas.ToolUpdateCaseDetails, `{"updates":{"summary.current":"x"}}`), {Content: "never asked"}}}
	var attempts int
	var stoppedAt time.Duration
	res := run(t, turnIn, model, func(t *testing.T, env *testsuiteEnv) {
		start := env.Now()
		onTool(env, schemas.ToolUpdateCaseDetails,
			func(context.Context, schemas.UpdateCaseDetailsArgs) (schemas.StatusResult, error) {
				attempts++
				return schemas.StatusResult{}, errors.New("store unreachable")
			})
		env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(
			func(context.Context, schemas.RecordTurn) error { stoppedAt = env.Now().Sub(start); return nil }).Once()
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(schemas.SignalCancelTurn, nil) }, 1500*time.Millisecond)
	})
	if !res.Cancelled || res.Escalation != nil || attempts > 2 || stoppedAt > 2*time.Second {
		t.Errorf("cancelled=%v escalation=%+v after %d attempts, stopped at %v", res.Cancelled, res.Escalation, attempts, stoppedAt)
	}
}

// TestChatTurnDeadline: a turn that reaches its deadline stops the step it waits for
// and ends with what it has, saying so.
func TestChatTurnDeadline(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolGetCaseDetails, `{}`),
		callTool(schemas.ToolGetCaseDetails, `{"case_id": "c1"}`),
		{Content: "never asked"},
	}}
	in := turnIn
	in.Timeout = 90 * time.Second
	calls := 0
	res := run(t, in, model, func(t *testing.T, env *testsuiteEnv) {
		onTool(env, schemas.ToolGetCaseDetails,
			func(context.Context, schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
				calls++
				return schemas.GetCaseDetailsResult{Status: "success", CaseDetails: map[string]any{"summary": "deposit"}}, nil
			}).After(time.Minute)
	})
	want := "This turn reached its time limit (90 s) and was stopped; here is what it had done. Please ask again to continue.\n\nSources: get_case_details"
	if !res.TimedOut || res.Cancelled || res.Reply != want || len(model.requests) != 2 {
		t.Fatalf("timed out=%v, reply %q after %d model calls", res.TimedOut, res.Reply, len(model.requests))
	}
	if res.ToolsUsed[0].Status != schemas.ToolOK || res.ToolsUsed[1].Status != schemas.ToolFailed {
		t.Errorf("tools used: %+v", res.ToolsUsed)
	}
}

func TestChatTurnToggledOffToolIsNeitherOfferedNorRun(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolUpdateCaseDetails, `{"updates": {"a": 1}}`),
		{Content: "OK."},
	}}
	in := turnIn
	in.Selection.Tools = []string{schemas.ToolGetCaseDetails}
	res := run(t, in, model, nil)
	if got := model.requests[0].Tools; len(got) != 1 || got[0] != schemas.ToolGetCaseDetails {
		t.Errorf("offered %v", got)
	}
	if use := res.ToolsUsed[0]; use.Status != schemas.ToolInvalid || !strings.Contains(use.Error, `unknown tool "update_case_details"`) {
		t.Errorf("tool use = %+v", use)
	}
}

// TestChatTurnUnavailableToolsAreNotOffered: a selected tool that no activity or child
// workflow runs is not offered to the model. Every registered tool has an activity
// today, so the test takes web_search's away for its duration.
func TestChatTurnUnavailableToolsAreNotOffered(t *testing.T) {
	missing, ok := tools.Get(schemas.ToolWebSearch)
	if !ok {
		t.Fatal("web_search is not registered")
	}
	saved := *missing
	missing.Activity, missing.Workflow = "", ""
	t.Cleanup(func() { *missing = saved })
	model := &scriptedModel{replies: []schemas.ModelResponse{{Content: "Hello."}}}
	in := turnIn
	in.Selection.Tools = []string{schemas.ToolKBSearch, missing.Name, schemas.ToolGetCaseDetails}
	res := run(t, in, model, nil)
	if got := model.requests[0].Tools; len(got) != 2 || got[0] != schemas.ToolKBSearch || got[1] != schemas.ToolGetCaseDetails {
		t.Errorf("offered %v", got)
	}
	if model.requests[0].LegalToolsOff {
		t.Error("legal tools reported off while kb_search is on")
	}
	if res.Reply != "Hello." {
		t.Errorf("reply without sources = %q", res.Reply)
	}
}

func TestChatTurnAllLegalToolsOff(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{{Content: "I cannot check the law now."}}}
	in := turnIn
	in.Selection.Tools = []string{schemas.ToolGetCaseDetails, schemas.ToolWebSearch, schemas.ToolLexSearchEnriched}
	run(t, in, model, nil)
	if !model.requests[0].LegalToolsOff {
		t.Error("all primary legal tools are off, but the model request does not say so")
	}
}

func TestChatTurnToolCallInText(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		{Content: "```json\n{\"tool\": \"get_case_details\", \"args\": {}}\n```"},
		{Content: "The case is about a deposit.\nSources: whatever the model says"},
	}}
	res := run(t, turnIn, model, func(t *testing.T, env *testsuiteEnv) { okDetails(env) })
	if len(res.ToolsUsed) != 1 || res.ToolsUsed[0].Status != schemas.ToolOK {
		t.Fatalf("tools_used = %+v", res.ToolsUsed)
	}
	last := model.requests[1].Messages
	if got := last[len(last)-1]; got.Role != schemas.MsgUser || !strings.HasPrefix(got.Content, "Result of get_case_details:\n") {
		t.Errorf("result sent back as %+v", got)
	}
	if res.Reply != "The case is about a deposit.\n\nSources: get_case_details" {
		t.Errorf("reply = %q", res.Reply)
	}
}

// TestChatTurnMalformedTextCall (issue 37, item 5): a tool call written as text that
// cannot be read gets one correction saying what is wrong; a second one ends the turn
// with a sentence in the case's language, never the JSON as the reply.
func TestChatTurnMalformedTextCall(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		{Content: `{"tool": "get_case_details", "args": {}, "why": "to see"}`},
		{Content: "The case is about a deposit."},
	}}
	res := run(t, turnIn, model, nil)
	last := model.requests[1].Messages
	if got := last[len(last)-1]; got.Role != schemas.MsgUser || !strings.Contains(got.Content, `only the keys "tool" and "args"`) {
		t.Errorf("correction sent as %+v", got)
	}
	if res.Reply != "The case is about a deposit." {
		t.Errorf("reply after the correction = %q", res.Reply)
	}

	twice := &scriptedModel{replies: []schemas.ModelResponse{
		{Content: `{"tool": "get_case_details", "args": "{}"}`},
		{Content: "```json\n{\"tool\": \"get_case_details\"}\n```"},
	}}
	res = run(t, turnIn, twice, nil)
	if res.Reply != wordsFor(turnIn.Language).malformedCall || len(twice.requests) != 2 {
		t.Errorf("reply after two malformed calls = %q after %d model calls", res.Reply, len(twice.requests))
	}
}

func TestChatTurnChecksCitations(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(&activities.Transcript{})
	env.RegisterActivity(&activities.Model{})
	env.RegisterActivity(&activities.Research{})
	env.OnActivity(transcriptActs.RecordUserMessage, mock.Anything, mock.Anything).Return(nil)
	model := &scriptedModel{replies: []schemas.ModelResponse{{Content: "Vedi art. 9999 c.c."}}}
	env.OnActivity(modelActs.CallModel, mock.Anything, mock.Anything).Return(model.call)
	var asked schemas.CheckCitations
	env.OnActivity(researchActs.CheckCitations, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.CheckCitations) (schemas.CheckedReply, error) {
			asked = in
			return schemas.CheckedReply{Reply: "Vedi art. 9999 c.c. [non trovato]",
				Citations: []schemas.Citation{{Text: "art. 9999 c.c.", Verified: false}}}, nil
		})
	var recorded schemas.RecordTurn
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RecordTurn) error { recorded = in; return nil })
	in := turnIn
	in.Language = "it"
	env.ExecuteWorkflow(ChatTurn, in)
	var res schemas.TurnResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if asked.Reply != "Vedi art. 9999 c.c." || asked.Language != "it" {
		t.Errorf("checked %+v", asked)
	}
	if res.Reply != "Vedi art. 9999 c.c. [non trovato]" || len(res.Citations) != 1 || res.Citations[0].Verified {
		t.Errorf("result %q, %+v", res.Reply, res.Citations)
	}
	if recorded.Result.Reply != res.Reply {
		t.Errorf("recorded %q", recorded.Result.Reply)
	}
}

// A ticket the model opens itself pauses the case after the turn, as the ladder's does.
func TestChatTurnModelOpensATicket(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolCreateSupportTicket, `{"issue_description": "The client's documents are unreadable", "agent_state_snapshot": {}}`),
		{Content: "I have asked our support team to help."},
	}}
	in := turnIn
	in.EscalationN = 3
	in.Selection.Tools = append(in.Selection.Tools, schemas.ToolCreateSupportTicket)
	var ticket schemas.SupportTicketInput
	res := run(t, in, model, func(t *testing.T, env *testsuiteEnv) {
		env.RegisterWorkflow(SupportTicket)
		env.OnWorkflow(SupportTicket, mock.Anything, mock.Anything).Return(
			func(_ workflow.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
				ticket = in
				return schemas.TicketResult{Status: schemas.ResultSuccess, TicketID: in.TicketID}, nil
			})
	})
	e := res.Escalation
	if e == nil || e.Rung != schemas.RungTicket || e.N != 3 || e.TicketID != "case:c1:turn:1:ticket" || e.TicketID != ticket.TicketID {
		t.Fatalf("escalation = %+v, ticket %+v", e, ticket)
	}
	if ticket.Args.CaseID != "c1" || !strings.HasPrefix(res.Reply, "I have asked our support team") {
		t.Errorf("ticket args %+v, reply %q", ticket.Args, res.Reply)
	}
}
