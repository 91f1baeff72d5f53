package workflows

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// failedCall is a tool call that failed after its retries, on its way up the ladder.
type failedCall struct {
	tool   *tools.Tool
	args   map[string]any
	reason string
}

// escalate climbs a failed call's ladder within the turn (tools.Ladder): the reasoner is
// consulted and its advice followed once; if that does not help, a tool whose ladder
// reaches the client ends the turn with a question for them, and any other tool's
// failure is told to the model. Each rung is noted for case_details.escalation. It
// returns the text the model is shown.
func (t *turn) escalate(f *failedCall) string {
	lw := caseWordsFor(t.in.Language)
	esc := &schemas.Escalation{N: t.in.EscalationN, Tool: f.tool.Name, Args: mustJSON(f.args), Error: f.reason,
		Rung: schemas.RungReasoner, Message: t.in.Message, Selection: t.in.Selection}
	t.attempt(t.in.EscalationN, schemas.RungReasoner, f.tool.Name, f.reason, "")
	advice := schemas.Advice{Action: schemas.AdviceAskUser}
	consult, err := t.exec.Consult(schemas.ConsultReasonerArgs{
		CaseID: t.in.CaseID, Language: t.in.Language, Purpose: schemas.ConsultPurposeEscalation,
		ContextSummary: fmt.Sprintf("Request: %s\nTool: %s\nArguments: %s\nError: %s\nTools on offer: %s",
			tools.Clip(t.in.Message, 500), f.tool.Name, esc.Args, f.reason, strings.Join(toolNames(t.offered), ", ")),
		SpecificQuestion: "How should the assistant proceed?",
		Escalation:       &schemas.Escalation{N: esc.N, Tool: esc.Tool, Error: esc.Error, Rung: schemas.RungReasoner},
	})
	if t.exec.Stopped() != "" {
		return tools.Failed(f.tool.Name, f.reason)
	}
	if err == nil && consult.Status == schemas.ResultSuccess {
		advice, esc.Advice = parseAdvice(consult.Response), tools.Clip(consult.Response, tools.SummaryChars)
	}
	if advice.Action == schemas.AdviceRetry || advice.Action == schemas.AdviceUseTool {
		esc.Rung = schemas.RungAdvice
		if text, ok := t.follow(advice, f); ok || t.exec.Stopped() != "" {
			return text
		}
	}
	if !f.tool.Ladder.User {
		return tools.Failed(f.tool.Name, f.reason)
	}
	esc.Rung, esc.Question = schemas.RungAskUser, clientQuestion(advice.Question, f, lw)
	t.attempt(t.in.EscalationN, schemas.RungAskUser, f.tool.Name, f.reason, "")
	t.res.Escalation, t.halt = esc, esc.Question
	return esc.Question
}

// errorCodeRe finds what reads as an HTTP status code in a question.
var errorCodeRe = regexp.MustCompile(`\b[45][0-9][0-9]\b`)

// clientQuestion is the ladder's question to the client: the reasoner's, unless it
// names a tool or a failed step, quotes the failure's reason or a status code (the
// escalation prompt forbids them; a model may still write them), else the case's own
// sentence. The client never reads the tool, the step or its error: the escalation
// keeps them for support, with the reasoner's whole advice.
func clientQuestion(q string, f *failedCall, lw caseWording) string {
	q = strings.TrimSpace(q)
	leaks := q == "" || (f.reason != "" && strings.Contains(q, f.reason)) || errorCodeRe.MatchString(q)
	for _, t := range tools.All() {
		leaks = leaks || strings.Contains(q, t.Name)
	}
	for _, s := range schemas.FailedSteps {
		leaks = leaks || strings.Contains(strings.ToLower(q), strings.ToLower(s))
	}
	if leaks {
		return lw.askUser
	}
	return q
}

// follow runs the reasoner's advice once: the same tool again, or another tool on
// offer, with the advised arguments or the failed call's. ok is false when the advice
// could not be followed, or its call failed too or answered with an error.
func (t *turn) follow(a schemas.Advice, f *failedCall) (string, bool) {
	name, args := f.tool.Name, f.args
	if a.Action == schemas.AdviceUseTool {
		name = a.Tool
	}
	if a.Args != nil {
		args = a.Args
	}
	use := schemas.ToolUse{Tool: name, Args: mustJSON(args), Status: schemas.ToolInvalid, Rung: schemas.RungAdvice}
	tool := t.offer(name)
	typed, reason := prepareLadderCall(tool, name, args, t.in)
	if reason != "" {
		use.Error, use.Summary = reason, tools.Failed(name, reason)
		t.res.ToolsUsed = append(t.res.ToolsUsed, use)
		t.attempt(t.in.EscalationN, schemas.RungAdvice, name, reason, "")
		return "", false
	}
	text, err := t.run1(tool, typed, &use)
	t.res.ToolsUsed = append(t.res.ToolsUsed, use)
	t.attempt(t.in.EscalationN, schemas.RungAdvice, name, use.Error, "")
	if err != nil && tool.Failure == tools.Degrade && t.exec.Stopped() == "" {
		t.exec.SourceFailed(name, use.Error)
	}
	return text, err == nil && use.Status == schemas.ToolOK
}

// answerPending runs the escalated call again at the start of the turn that answers the
// ladder's question. If it works, the model gets its result with the client's message;
// if it fails again, or answers with an error, the turn opens the escalation's support
// ticket and ends.
func (t *turn) answerPending() error {
	p := *t.in.Pending
	tool, _ := tools.Get(p.Tool)
	var args map[string]any
	_ = json.Unmarshal(p.Args, &args)
	use := schemas.ToolUse{Tool: p.Tool, Args: p.Args, Status: schemas.ToolInvalid, Rung: schemas.RungAnswer}
	typed, reason := prepareLadderCall(tool, p.Tool, args, t.in)
	var text string
	var err error
	if reason == "" {
		text, err = t.run1(tool, typed, &use)
	} else {
		use.Error, use.Summary = reason, tools.Failed(p.Tool, reason)
	}
	t.res.ToolsUsed = append(t.res.ToolsUsed, use)
	t.attempt(p.N, schemas.RungAnswer, p.Tool, use.Error, "")
	if reason == "" && err == nil && use.Status == schemas.ToolOK {
		t.msgs[0].Content += fmt.Sprintf("\n\n[%s was run again after this message. Result:\n%s]", p.Tool, text)
		return nil
	}
	if t.exec.Stopped() != "" {
		// The retry was stopped, not failed: the loop ends the turn, no ticket opens,
		// and the case is open again; the client may ask once more.
		return nil
	}
	lw := caseWordsFor(t.in.Language)
	p.Rung, p.Error = schemas.RungTicket, use.Error
	ticket, err := t.exec.OpenTicket(ticketInput(t.in.UserID, t.in.CaseID, p, "the retry after the client's answer failed too"))
	if err != nil {
		return err
	}
	p.TicketID = ticket.TicketID
	t.res.Escalation = &p
	t.attempt(p.N, schemas.RungTicket, p.Tool, p.Error, ticket.TicketID)
	t.halt = lw.answerFailed + " " + fmt.Sprintf(lw.ticket, ticket.TicketID)
	return nil
}

// prepareLadderCall prepares a call the ladder makes itself, and returns the reason it
// cannot be made, if any.
func prepareLadderCall(tool *tools.Tool, name string, args map[string]any, in schemas.ChatTurnInput) (any, string) {
	if tool == nil || !tool.Available() {
		return nil, fmt.Sprintf("%s is not a tool on offer", name)
	}
	p := prepare(tool, mustJSON(args), in)
	return p.typed, p.reason()
}

// parseAdvice reads the reasoner's JSON advice, perhaps fenced or among other text; an
// answer it cannot read means asking the client.
func parseAdvice(content string) schemas.Advice {
	var a schemas.Advice
	if json.Unmarshal([]byte(jsonObjectIn(content)), &a) != nil {
		return schemas.Advice{Action: schemas.AdviceAskUser}
	}
	switch a.Action {
	case schemas.AdviceRetry, schemas.AdviceAskUser:
		return a
	case schemas.AdviceUseTool:
		if a.Tool != "" {
			return a
		}
	}
	return schemas.Advice{Action: schemas.AdviceAskUser, Question: a.Question}
}

// ticketInput is the SupportTicket workflow's input for an escalation: a description
// of what failed and what was tried, and a snapshot of the ladder's state.
func ticketInput(userID, caseID string, e schemas.Escalation, why string) schemas.SupportTicketInput {
	desc := fmt.Sprintf("Tool %s failed after its retries: %s. The reasoner was consulted%s. The client was asked: %q. Then %s. Arguments: %s.",
		e.Tool, e.Error, adviceClause(e.Advice), e.Question, why, e.Args)
	return schemas.SupportTicketInput{
		TicketID: schemas.TicketWorkflowID(caseID, e.N), UserID: userID,
		Escalation: &schemas.Escalation{N: e.N, Tool: e.Tool, Error: e.Error, Rung: schemas.RungTicket, Advice: e.Advice, Question: e.Question},
		Args: schemas.CreateSupportTicketArgs{CaseID: caseID, IssueDescription: desc, AgentStateSnapshot: map[string]any{
			"tool": e.Tool, "arguments": string(e.Args), "error": e.Error, "advice": e.Advice, "question": e.Question, "escalation": e.N,
		}},
	}
}

func adviceClause(advice string) string {
	if advice == "" {
		return " but did not answer"
	}
	return " and advised " + advice
}
