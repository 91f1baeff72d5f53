package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// sourceChars caps what a source quotes of its tool's result.
const sourceChars = 300

// RunTurn is the structured tool loop of seed 001, made durable by its executor:
//   - at most in.MaxSteps model calls; all but the last offer the turn's tools, so the
//     last must answer in text;
//   - tool calls come natively, or as a {"tool": ..., "args": {...}} JSON text from
//     models without tool calling;
//   - each call is validated against its tool's schema; an invalid call goes back to
//     the model once with the exact error, and a second one ends the turn with a clear
//     message;
//   - valid calls are bound to the turn's case, run, and formatted for the model; a
//     failure reaches it as "[Tool <name> failed: <reason>]". A degrade-class tool's
//     failure stops there (and is counted for its source); an escalate-class tool's
//     climbs its ladder, as does its second answer with an error after one
//     correction;
//   - a cancellation, or the deadline, stops the loop before its next step and the
//     step under way;
//   - a model call refused because the day's model-token budget is used up ends the
//     turn with what it has, saying when the budget renews (TurnResult.Budget);
//   - the answer ends with a sources line naming the tools whose results it used.
func RunTurn(in schemas.ChatTurnInput, exec TurnExecutor) (schemas.TurnResult, error) {
	t := &turn{in: in, exec: exec, words: wordsFor(in.Language),
		res:  schemas.TurnResult{TurnID: in.TurnID, ToolsUsed: []schemas.ToolUse{}, Sources: []schemas.Source{}, Citations: []schemas.Citation{}},
		msgs: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: in.Message}},
	}
	for _, name := range in.Selection.Tools {
		if tool, ok := tools.Get(name); ok && tool.Available() {
			t.offered = append(t.offered, tool)
		}
	}
	return t.run()
}

// turn is the state of one run of the loop.
type turn struct {
	in      schemas.ChatTurnInput
	exec    TurnExecutor
	words   wording
	offered []*tools.Tool
	res     schemas.TurnResult
	msgs    []schemas.ChatMessage
	// corrected is set once the model has had its one chance to fix an invalid call.
	corrected bool
	// toolCorrected names the escalate-class tools whose answer with an error the
	// model has had its one chance to fix (toolError).
	toolCorrected []string
	// failed is the call whose failure must climb its tool's ladder.
	failed *failedCall
	// halt is the reply that ends the turn early: the ladder's question or ticket.
	halt string
}

func (t *turn) run() (schemas.TurnResult, error) {
	if t.in.Pending != nil {
		if err := t.answerPending(); err != nil || t.halt != "" {
			return t.finish(t.halt), err
		}
	}
	maxSteps := max(t.in.MaxSteps, 1)
	for step := 1; step <= maxSteps; step++ {
		if why := t.exec.Stopped(); why != "" {
			return t.stop(why), nil
		}
		req := schemas.ModelRequest{
			Role: schemas.ModelAssistant, CaseID: t.in.CaseID, TurnNo: t.in.TurnNo, Language: t.in.Language,
			Messages: t.msgs, LegalToolsOff: !tools.AnyPrimary(t.in.Selection.Tools),
			UserID: t.in.UserID, OrgID: t.in.OrgID, UseMemory: t.in.Selection.UseMemory, UseRAG: t.in.Selection.UseRAG, Query: t.in.Message,
		}
		if step < maxSteps {
			req.Tools = toolNames(t.offered)
		}
		resp, err := t.exec.CallModel(req)
		if why := t.exec.Stopped(); err != nil && why != "" {
			return t.stop(why), nil
		}
		if b, ok := schemas.BudgetExhaustedOf(err); ok {
			return t.outOfBudget(b), nil
		}
		if err != nil {
			return t.res, fmt.Errorf("model call %d: %w", step, err)
		}
		t.res.Steps, t.res.Model, t.res.Provider = step, resp.Model, resp.Provider
		calls, inText := resp.ToolCalls, false
		if len(calls) == 0 {
			call, problem := parseTextCall(resp.Content, step)
			switch {
			case problem == "" && call.Name != "" && len(req.Tools) > 0:
				calls, inText = []schemas.ToolCall{call}, true
			case call.Name != "" || problem != "":
				// A tool call written as text that is malformed, or that comes when no
				// tool is offered, never becomes the reply: one correction, then a
				// sentence in the case's language.
				if t.corrected || step == maxSteps {
					return t.finish(t.words.malformedCall), nil
				}
				t.corrected = true
				if problem == "" {
					problem = "no tool is offered now"
				}
				t.msgs = append(t.msgs, schemas.ChatMessage{Role: schemas.MsgAssistant, Content: resp.Content},
					schemas.ChatMessage{Role: schemas.MsgUser, Content: fmt.Sprintf(textCallCorrection, problem)})
				continue
			}
		}
		if len(calls) == 0 || step == maxSteps {
			return t.finish(resp.Content), nil
		}
		if inText {
			t.msgs = append(t.msgs, schemas.ChatMessage{Role: schemas.MsgAssistant, Content: resp.Content})
		} else {
			t.msgs = append(t.msgs, schemas.ChatMessage{Role: schemas.MsgAssistant, Content: resp.Content, ToolCalls: calls, Echo: resp.Echo})
		}
		for _, call := range calls {
			text, stop := t.call(call)
			if f := t.failed; f != nil {
				used := len(t.res.ToolsUsed) - 1
				t.failed = nil
				text = t.escalate(f)
				t.res.ToolsUsed[used].Shown = text // what the model reads for its call
			}
			if inText {
				t.msgs = append(t.msgs, schemas.ChatMessage{Role: schemas.MsgUser, Content: fmt.Sprintf("Result of %s:\n%s", call.Name, text)})
			} else {
				t.msgs = append(t.msgs, schemas.ChatMessage{Role: schemas.MsgTool, ToolCallID: call.ID, Content: text})
			}
			if stop {
				return t.finish(t.words.invalidTwice), nil
			}
			if t.halt != "" {
				return t.finish(t.halt), nil
			}
			if why := t.exec.Stopped(); why != "" {
				return t.stop(why), nil
			}
		}
	}
	return t.finish(""), nil
}

// stop ends a turn that was cancelled or reached its deadline, with what it has: the
// tools it ran and their sources, and a reply that says why it stopped.
func (t *turn) stop(why string) schemas.TurnResult {
	if why == StopCancelled {
		t.res.Cancelled = true
		return t.finish(t.words.cancelled)
	}
	t.res.TimedOut = true
	return t.finish(fmt.Sprintf(t.words.timedOut, minutes(t.exec.Timeout())))
}

// outOfBudget ends a turn whose model-token budget ran out, with what it has and a
// reply that says which budget and when it renews.
func (t *turn) outOfBudget(b schemas.BudgetExhausted) schemas.TurnResult {
	t.res.Budget = &b
	return t.finish(budgetReply(t.in.Language, b))
}

// minutes writes a deadline as people say it: "10 min", or "90 s" below whole minutes.
func minutes(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return fmt.Sprintf("%d s", d/time.Second)
}

// call runs one tool call and returns the text the model is shown. stop is set when an
// invalid call comes after the model's one correction.
func (t *turn) call(call schemas.ToolCall) (text string, stop bool) {
	use := schemas.ToolUse{Tool: call.Name, Args: rawArgs(call.Arguments), Status: schemas.ToolFailed}
	defer func() {
		use.Shown = text
		t.res.ToolsUsed = append(t.res.ToolsUsed, use)
	}()
	invalid := func(reason string) (string, bool) {
		use.Status, use.Error = schemas.ToolInvalid, reason
		if t.corrected {
			use.Summary = tools.Failed(call.Name, reason)
			return use.Summary, true
		}
		t.corrected = true
		text := fmt.Sprintf("[Tool %s: invalid arguments: %s. Call it again with corrected arguments.]", call.Name, reason)
		use.Summary = text
		return text, false
	}
	tool := t.offer(call.Name)
	if tool == nil {
		return invalid(fmt.Sprintf("unknown tool %q; the tools on offer are %v", call.Name, toolNames(t.offered)))
	}
	p := prepare(tool, []byte(orEmptyObject(call.Arguments)), t.in)
	use.Dropped = p.dropped
	if p.args != nil {
		use.Args = mustJSON(p.args)
	}
	switch {
	case p.refusal != "":
		use.Error = p.refusal
		text := tools.Failed(call.Name, p.refusal)
		use.Summary = text
		return text, false
	case p.invalid != "":
		return invalid(p.invalid)
	}
	args, typed := p.args, p.typed
	text, err := t.run1(tool, typed, &use)
	switch {
	case t.exec.Stopped() != "":
		// A call stopped with its turn neither climbs a ladder nor counts against its
		// source.
	case err != nil && tool.Failure == tools.Degrade:
		t.exec.SourceFailed(tool.Name, use.Error)
	case err != nil:
		t.failed = &failedCall{tool: tool, args: args, reason: use.Error}
	case use.Status == schemas.ToolFailed && tool.Failure == tools.Escalate:
		text = t.toolError(tool, args, use.Error, text)
	}
	if use.Status == schemas.ToolOK && tool.Name == schemas.ToolCreateSupportTicket {
		// The model opened a ticket itself: the case pauses for support after the turn.
		t.res.Escalation = &schemas.Escalation{N: t.in.EscalationN, Tool: tool.Name, Args: use.Args, Rung: schemas.RungTicket,
			Error: typed.(schemas.CreateSupportTicketArgs).IssueDescription, TicketID: schemas.TurnTicketWorkflowID(t.in.TurnID),
			Message: t.in.Message, Selection: t.in.Selection}
		t.attempt(t.in.EscalationN, schemas.RungTicket, tool.Name, t.res.Escalation.Error, t.res.Escalation.TicketID)
	}
	return text, false
}

// toolErrorCorrection is the turn's one correction of an escalate-class tool that
// answered with an error: the tool ran, and its answer says what is wrong.
const toolErrorCorrection = "[This is your one correction for %s: fix what its answer says is wrong (its arguments, or a step it depends on) and call it again. If it answers with an error again, the failure is escalated.]"

// toolError handles an escalate-class tool's answer with status "error" (a
// placeholder that names no party, a case it cannot find): the first in the turn
// gets the model one correction, shown after the answer; the next goes up the
// tool's ladder as a failure would.
func (t *turn) toolError(tool *tools.Tool, args map[string]any, reason, text string) string {
	if !slices.Contains(t.toolCorrected, tool.Name) {
		t.toolCorrected = append(t.toolCorrected, tool.Name)
		return text + "\n" + fmt.Sprintf(toolErrorCorrection, tool.Name)
	}
	t.failed = &failedCall{tool: tool, args: args, reason: reason}
	return text
}

// attempt notes one rung of the case's escalation n for case_details.escalation.
func (t *turn) attempt(n int, rung, tool, reason, ticketID string) {
	t.exec.Escalated(schemas.EscalationAttempt{N: n, Rung: rung, Tool: tool, Error: reason, At: t.exec.Now(), TicketID: ticketID})
}

// run1 runs a valid call, filling use in, and returns the text the model is shown. The
// error is the activity's when the tool failed after its retries.
func (t *turn) run1(tool *tools.Tool, typed any, use *schemas.ToolUse) (string, error) {
	start := t.exec.Now()
	out, err := t.exec.RunTool(tool, typed)
	use.LatencyMS = t.exec.Now().Sub(start).Milliseconds()
	if err != nil {
		use.Status, use.Error = schemas.ToolFailed, toolFailure(tool, err)
		use.Summary = tools.Failed(tool.Name, use.Error)
		use.Shown = use.Summary
		return use.Summary, err
	}
	text := out.Text
	use.Summary, use.ResultRef, use.Shown = tools.Clip(text, tools.SummaryChars), out.Ref, text
	if out.Failure != "" {
		use.Status, use.Error = schemas.ToolFailed, out.Failure
		return text, nil
	}
	use.Status = schemas.ToolOK
	t.res.Sources = append(t.res.Sources, schemas.Source{Tool: tool.Name, Summary: tools.Clip(text, sourceChars)})
	return text, nil
}

// offer returns the offered tool of that name, or nil.
func (t *turn) offer(name string) *tools.Tool {
	for _, tool := range t.offered {
		if tool.Name == name {
			return tool
		}
	}
	return nil
}

// finish sets the reply, ending it with the sources line.
func (t *turn) finish(reply string) schemas.TurnResult {
	if reply == "" {
		reply = t.words.noAnswer
	}
	var used []string
	for _, s := range t.res.Sources {
		if !slices.Contains(used, s.Tool) {
			used = append(used, s.Tool)
		}
	}
	t.res.Reply = withSources(reply, t.words.sources, used)
	return t.res
}

// bind fills the tool's bound arguments from the turn. A model that names another
// case, user or organization gets the tool's refusal text instead of a run.
func bind(tool *tools.Tool, args map[string]any, in schemas.ChatTurnInput) (map[string]any, string) {
	for _, b := range tool.Bound {
		want := map[string]string{"case": in.CaseID, "user": in.UserID, "org": in.OrgID, "language": in.Language}[b.From]
		if got, ok := args[b.Arg]; ok && got != nil && b.Default {
			continue
		} else if ok && got != nil && got != want {
			return args, b.Refusal
		}
		if want == "" && b.From == "org" {
			args[b.Arg] = nil
			continue
		}
		if want == "" && b.Default {
			// Nothing to fill it with (an admin's run on no case): left to the tool.
			continue
		}
		args[b.Arg] = want
	}
	return args, ""
}

// prepared is a tool call made ready to run, or why it cannot run.
type prepared struct {
	// args are the validated arguments bound to the turn's case; nil when they are
	// invalid.
	args map[string]any
	// typed is args decoded into the tool's argument struct.
	typed   any
	dropped []string
	// invalid is why the arguments do not fit the tool's schema or struct; refusal is
	// the tool's refusal text for an argument the turn binds and the model set otherwise.
	invalid, refusal string
}

// prepare validates a call's JSON arguments against the tool's schema, binds them to
// the turn's case and decodes them into the tool's argument struct: the one path every
// call takes, whether the model, the reasoner's advice or the ladder's retry makes it.
func prepare(tool *tools.Tool, raw []byte, in schemas.ChatTurnInput) prepared {
	if in.MaxArgsBytes > 0 && len(raw) > in.MaxArgsBytes {
		return prepared{invalid: fmt.Sprintf("the arguments have %d bytes; the limit is %d", len(raw), in.MaxArgsBytes)}
	}
	valid, err := tool.Schema.Validate(raw)
	if err != nil {
		return prepared{invalid: err.Error()}
	}
	args, refusal := bind(tool, valid.Args, in)
	p := prepared{args: args, dropped: valid.Dropped, refusal: refusal}
	if refusal != "" {
		return p
	}
	if p.typed, err = tool.Decode(args); err != nil {
		p.invalid = err.Error()
	}
	return p
}

// reason is why the call cannot run, or "".
func (p prepared) reason() string { return p.refusal + p.invalid }

// textCallCorrection is the turn's one correction of a tool call written as text
// that it cannot read (seed 001's), with what is wrong.
const textCallCorrection = `Your tool call could not be read: %s. Write it again as one JSON object with exactly the keys "tool" (the tool's name) and "args" (an object of its arguments), and nothing else; or answer in words.`

// parseTextCall reads a tool call written as text by a model without tool calling:
// a JSON object with exactly the keys "tool" and "args", perhaps in a code fence. Any
// JSON object with a "tool" key is taken for a call: problem says what is wrong with
// one it cannot run (an extra or missing key, a name that is no string, args that are
// no object), and call and problem are both empty for text that is no call.
func parseTextCall(content string, step int) (call schemas.ToolCall, problem string) {
	var payload map[string]json.RawMessage
	if json.Unmarshal([]byte(trimFence(content)), &payload) != nil {
		return schemas.ToolCall{}, ""
	}
	rawName, isCall := payload["tool"]
	if !isCall {
		return schemas.ToolCall{}, ""
	}
	var name string
	var args map[string]any
	switch {
	case json.Unmarshal(rawName, &name) != nil || name == "":
		return schemas.ToolCall{}, `"tool" must be the tool's name, a string`
	case payload["args"] == nil:
		return schemas.ToolCall{Name: name}, `"args" is missing`
	case json.Unmarshal(payload["args"], &args) != nil || args == nil:
		return schemas.ToolCall{Name: name}, `"args" must be a JSON object`
	case len(payload) != 2:
		return schemas.ToolCall{Name: name}, `only the keys "tool" and "args" may be given`
	}
	return schemas.ToolCall{ID: fmt.Sprintf("text-%d", step), Name: name, Arguments: string(payload["args"])}, ""
}

// toolFailure is the short reason a tool's call failed, as LEXE words a timeout:
// "Timeout after 20000ms", the limit of one attempt (seed 000).
func toolFailure(tool *tools.Tool, err error) string {
	var timeoutErr *temporal.TimeoutError
	if errors.As(err, &timeoutErr) {
		return fmt.Sprintf("Timeout after %dms", tool.Policy.Timeout.Milliseconds())
	}
	return failureReason(err)
}

// failureReason is the short reason a step failed, for the model and the user.
func failureReason(err error) string {
	var appErr *temporal.ApplicationError
	var timeoutErr *temporal.TimeoutError
	switch {
	case errors.As(err, &timeoutErr):
		return "timed out"
	case errors.As(err, &appErr):
		return appErr.Message()
	default:
		return err.Error()
	}
}

func toolNames(ts []*tools.Tool) []string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}
