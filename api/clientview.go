package api

import (
	"encoding/json"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// failureView is what a caller reads of a case's failures in its chat: its turns'
// results, events and transcript. A failed tool's error, and the summary that holds
// it, are for the model and support: the client reads that the call failed, not why
// (an upstream's "503: upstream connect error", a store's message). The escalation's
// error, arguments and the reasoner's advice are support's too; the client reads the
// ladder's question, a sentence in the case's language (issue 37, item 4). Staff (an
// admin, support) read them as kept, as support's routes do. The case itself, as its
// client reads it, holds the escalations without their errors too: its status's, and
// case_details.escalation's attempts.
type failureView struct {
	turn    func(schemas.TurnResult) schemas.TurnResult
	event   func(store.Event) store.Event
	records func([]store.Record) []store.Record
	caseOf  func(store.Case) store.Case
}

var (
	// asKept is staff's view.
	asKept = failureView{
		turn:    func(res schemas.TurnResult) schemas.TurnResult { return res },
		event:   func(e store.Event) store.Event { return e },
		records: func(recs []store.Record) []store.Record { return recs },
		caseOf:  func(cs store.Case) store.Case { return cs },
	}
	// forClient is the client's view.
	forClient = failureView{turn: clientTurn, event: clientEvent, records: clientRecords, caseOf: clientCase}
)

// failuresFor is the caller's view of failures: staff's for an admin or support,
// else the client's.
func failuresFor(c echo.Context) failureView {
	roles := identity(c).Roles
	if slices.Contains(roles, schemas.RoleAdmin) || slices.Contains(roles, schemas.RoleSupport) {
		return asKept
	}
	return forClient
}

// clientTurn is a turn's result as the client reads it.
func clientTurn(res schemas.TurnResult) schemas.TurnResult {
	used := make([]schemas.ToolUse, len(res.ToolsUsed))
	for i, u := range res.ToolsUsed {
		if u.Status != schemas.ToolOK {
			u.Error, u.Summary = "", ""
		}
		used[i] = u
	}
	res.ToolsUsed = used
	if e := res.Escalation; e != nil {
		c := *e
		c.Error, c.Advice, c.Args = "", "", nil
		res.Escalation = &c
	}
	return res
}

// clientEvent is an event as the client reads it: a failed tool.finished without its
// error and summary, an escalation without its error and advice, and a turn's result
// as clientTurn has it. Bodies it cannot read are left as they are.
func clientEvent(e store.Event) store.Event {
	switch e.Type {
	case schemas.EventToolFinished, schemas.EventEscalation, schemas.EventStatus, schemas.EventTurnCompleted, schemas.EventTurnCancelled:
	default:
		return e // the others hold no failure: model.delta, the most frequent, is not decoded
	}
	var body map[string]any
	if json.Unmarshal(e.Body, &body) != nil {
		return e
	}
	switch e.Type {
	case schemas.EventToolFinished:
		if !withoutError(body) {
			return e
		}
	case schemas.EventEscalation:
		delete(body, "error")
		delete(body, "advice")
	case schemas.EventStatus:
		esc, ok := body["escalation"].(map[string]any)
		if !ok {
			return e
		}
		delete(esc, "error")
	case schemas.EventTurnCompleted, schemas.EventTurnCancelled:
		used, _ := body["tools_used"].([]any)
		for _, u := range used {
			if call, ok := u.(map[string]any); ok {
				withoutError(call)
			}
		}
		if esc, ok := body["escalation"].(map[string]any); ok {
			delete(esc, "error")
			delete(esc, "advice")
			delete(esc, "args")
		}
	}
	if raw, err := json.Marshal(body); err == nil {
		e.Body = raw
	}
	return e
}

// withoutError takes a failed call's error and summary out, and reports whether it
// did.
func withoutError(call map[string]any) bool {
	if call["status"] == schemas.ToolOK {
		return false
	}
	delete(call, "error")
	delete(call, "summary")
	return true
}

// clientRecords are a transcript's records as the client reads them: a failed tool
// record without its error, and without the text the model read of the failure.
func clientRecords(recs []store.Record) []store.Record {
	out := make([]store.Record, len(recs))
	for i, r := range recs {
		if r.Tool != nil && r.Tool.Status != schemas.ToolOK {
			tool := *r.Tool
			tool.Error, r.Tool, r.Content = "", &tool, ""
		}
		out[i] = r
	}
	return out
}

// clientCase is a case as its client reads it: the escalation of its status and the
// attempts of case_details.escalation without their errors.
func clientCase(cs store.Case) store.Case {
	if cs.State != nil && cs.State.Escalation != nil {
		state, esc := *cs.State, *cs.State.Escalation
		esc.Error, state.Escalation = "", &esc
		cs.State = &state
	}
	attempts, ok := cs.Details["escalation"].([]any)
	if !ok {
		return cs
	}
	details := make(map[string]any, len(cs.Details))
	for k, v := range cs.Details {
		details[k] = v
	}
	kept := make([]any, len(attempts))
	for i, a := range attempts {
		if m, ok := a.(map[string]any); ok {
			c := make(map[string]any, len(m))
			for k, v := range m {
				if k != "error" {
					c[k] = v
				}
			}
			a = c
		}
		kept[i] = a
	}
	details["escalation"] = kept
	cs.Details = details
	return cs
}
