package workflows

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// researchTurn offers a research tool and a case tool.
var researchTurn = func() schemas.ChatTurnInput {
	in := turnIn
	in.Message = "art. 2043 c.c."
	in.Selection = schemas.Selection{Tools: []string{schemas.ToolNormattivaSearch, schemas.ToolGetCaseDetails}}
	return in
}()

// lexeDown is what normattiva_search's activity reports while LEXE answers 503.
const lexeDown = "lexe-tools answered 503: upstream connect error"

// sourceFailures mocks RecordSourceFailure: the store holds failures before this turn's.
func sourceFailures(env *testsuiteEnv, before int, got *[]schemas.RecordSourceFailure) {
	env.OnActivity(ticketActs.RecordSourceFailure, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RecordSourceFailure) (schemas.SourceFailures, error) {
			*got = append(*got, in)
			return schemas.SourceFailures{Failures: before + len(*got)}, nil
		})
}

// TestChatTurnResearchFailureDegrades: a degrade-class tool's failure is told to the
// model, which carries on within the turn from what else it found: no reasoner, no
// question to the client, no ticket; the failure is counted for its source.
func TestChatTurnResearchFailureDegrades(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolNormattivaSearch, `{"act_type": "codice civile", "article": "2043"}`),
		callTool(schemas.ToolGetCaseDetails, `{}`),
		{Content: "Normattiva is unavailable; from the case file: deposit."},
	}}
	var counted []schemas.RecordSourceFailure
	consulted := false
	res := run(t, researchTurn, model, func(t *testing.T, env *testsuiteEnv) {
		onTool(env, schemas.ToolNormattivaSearch, func(context.Context, schemas.NormattivaSearchArgs) (schemas.StatusResult, error) {
			return schemas.StatusResult{}, temporal.NewNonRetryableApplicationError(lexeDown, "Unavailable", nil)
		})
		okDetails(env)
		sourceFailures(env, 0, &counted)
		env.OnActivity(modelActs.ConsultReasoner, mock.Anything, mock.Anything).Return(
			func(context.Context, schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
				consulted = true
				return schemas.ConsultReasonerResult{}, nil
			}).Maybe()
	})
	if res.Escalation != nil || consulted || len(model.requests) != 3 {
		t.Fatalf("escalation %+v, reasoner consulted %v, %d model calls; want the turn to carry on", res.Escalation, consulted, len(model.requests))
	}
	if got := model.requests[1].Messages[2].Content; got != "[Tool normattiva_search failed: "+lexeDown+"]" {
		t.Errorf("the model read %q, want seed 000's failure text", got)
	}
	if !strings.HasPrefix(res.Reply, "Normattiva is unavailable") {
		t.Errorf("reply = %q", res.Reply)
	}
	if len(counted) != 1 || counted[0].Tool != schemas.ToolNormattivaSearch || counted[0].Reason != lexeDown || counted[0].ID == "" {
		t.Errorf("source failures counted: %+v", counted)
	}
}

// TestChatTurnSourceThatKeepsFailingOpensOneTicket: the failure that brings a source
// to SourceFailureLimit within the window starts the operator's ticket of the day,
// source:<tool>:<UTC date>, abandoned to run on; the turn and its case go on.
func TestChatTurnSourceThatKeepsFailingOpensOneTicket(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolNormattivaSearch, `{"act_type": "codice civile", "article": "2043"}`),
		{Content: "Normattiva is unavailable."},
	}}
	var counted []schemas.RecordSourceFailure
	var tickets []schemas.SupportTicketInput
	var day time.Time
	res := run(t, researchTurn, model, func(t *testing.T, env *testsuiteEnv) {
		day = env.Now()
		onTool(env, schemas.ToolNormattivaSearch, func(context.Context, schemas.NormattivaSearchArgs) (schemas.StatusResult, error) {
			return schemas.StatusResult{}, temporal.NewNonRetryableApplicationError(lexeDown, "Unavailable", nil)
		})
		sourceFailures(env, schemas.SourceFailureLimit-1, &counted)
		env.RegisterWorkflow(SupportTicket)
		env.OnWorkflow(SupportTicket, mock.Anything, mock.Anything).Return(
			func(_ workflow.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
				tickets = append(tickets, in)
				return schemas.TicketResult{Status: schemas.ResultSuccess, TicketID: in.TicketID}, nil
			})
	})
	if res.Escalation != nil || len(counted) != 1 {
		t.Fatalf("escalation %+v, %d failures counted", res.Escalation, len(counted))
	}
	want := "source:normattiva_search:" + day.UTC().Format(time.DateOnly)
	if len(tickets) != 1 || tickets[0].TicketID != want || tickets[0].Source != schemas.ToolNormattivaSearch ||
		tickets[0].Args.CaseID != schemas.OperatorCase || !strings.Contains(tickets[0].Args.IssueDescription, lexeDown) {
		t.Errorf("tickets = %+v, want one %s about the source", tickets, want)
	}
	if got := schemas.SourceTicketID(schemas.ToolNormattivaSearch, day); got != want {
		t.Errorf("SourceTicketID = %q, want %q", got, want)
	}
}

// TestChatTurnToolErrorGetsOneCorrectionThenTheLadder: an escalate-class tool that
// answers with status "error" is shown to the model once with a correction; a second
// such answer climbs the tool's ladder to the client.
func TestChatTurnToolErrorGetsOneCorrectionThenTheLadder(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolGetCaseDetails, `{}`),
		callTool(schemas.ToolGetCaseDetails, `{}`),
		{Content: "never asked"},
	}}
	consulted := 0
	res := run(t, turnIn, model, func(t *testing.T, env *testsuiteEnv) {
		onTool(env, schemas.ToolGetCaseDetails, func(context.Context, schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
			return schemas.GetCaseDetailsResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
		})
		env.OnActivity(modelActs.ConsultReasoner, mock.Anything, mock.Anything).Return(
			func(context.Context, schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
				consulted++
				return schemas.ConsultReasonerResult{Status: "success", Response: `{"action": "ask_user"}`}, nil
			})
	})
	if len(model.requests) != 2 {
		t.Fatalf("model called %d times, want 2 (the call, then its correction)", len(model.requests))
	}
	shown := model.requests[1].Messages[2].Content
	// The offline model knows the correction by its start (llm/offline.correctionMarker).
	if !strings.Contains(shown, "[Tool get_case_details failed: "+schemas.CaseNotFound+"]") ||
		!strings.Contains(shown, "[This is your one correction for get_case_details:") {
		t.Errorf("the model read %q, want the answer and its one correction", shown)
	}
	e := res.Escalation
	if consulted != 1 || e == nil || e.Rung != schemas.RungAskUser || e.Error != schemas.CaseNotFound || res.Reply != caseWordsFor("en").askUser {
		t.Errorf("reasoner consulted %d times, escalation %+v, reply %q", consulted, e, res.Reply)
	}
}

// TestChatTurnDegradeToolErrorIsNotEscalated: a research tool's answer with an error
// is the model's to read, without correction or ladder.
func TestChatTurnDegradeToolErrorIsNotEscalated(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolNormattivaSearch, `{"act_type": "codice civile", "article": "2043"}`),
		callTool(schemas.ToolNormattivaSearch, `{"act_type": "codice civile", "article": "2043"}`),
		{Content: "Nothing found."},
	}}
	var counted []schemas.RecordSourceFailure
	res := run(t, researchTurn, model, func(t *testing.T, env *testsuiteEnv) {
		onTool(env, schemas.ToolNormattivaSearch, func(context.Context, schemas.NormattivaSearchArgs) (map[string]any, error) {
			return map[string]any{"success": false, "error": "act not found"}, nil
		})
		sourceFailures(env, 0, &counted)
	})
	if res.Escalation != nil || len(model.requests) != 3 || strings.Contains(model.requests[2].Messages[4].Content, "correction") {
		t.Errorf("escalation %+v after %d model calls; the model read %q", res.Escalation, len(model.requests), model.requests[2].Messages[4].Content)
	}
	if len(counted) != 0 {
		t.Errorf("an answer, not a failure of the source, was counted: %+v", counted)
	}
}

// TestLadderQuestionNeverLeaks: the reasoner's question reaches the client unless it
// names a tool, quotes the error or a status code; then the case's sentence does.
func TestLadderQuestionNeverLeaks(t *testing.T) {
	tool, _ := tools.Get(schemas.ToolGetCaseDetails)
	f := &failedCall{tool: tool, reason: "lexe-tools answered 503: upstream connect error"}
	lw := caseWordsFor("it")
	for q, want := range map[string]string{
		"Può confermare la data del contratto?": "Può confermare la data del contratto?",
		"":                                      lw.askUser,
		"get_case_details non funziona: riprovo?":                 lw.askUser,
		"Errore lexe-tools answered 503: upstream connect error.": lw.askUser,
		"Il servizio ha risposto 503, riprovo?":                   lw.askUser,
		"Posso usare normattiva_search con altri dati?":           lw.askUser,
	} {
		if got := clientQuestion(q, f, lw); got != want {
			t.Errorf("clientQuestion(%q) = %q, want %q", q, got, want)
		}
	}
}
