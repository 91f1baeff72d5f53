package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// internal is an upstream's error that only the model and support read.
const internal = "lexe-tools answered 503: upstream connect error"

// TestClientReadsNoInternalError: the client's view of a turn, its events and its
// transcript keeps that a call failed and drops why; what succeeded is untouched.
func TestClientReadsNoInternalError(t *testing.T) {
	failed := schemas.ToolUse{Tool: schemas.ToolNormattivaSearch, Status: schemas.ToolFailed, Error: internal,
		Summary: "[Tool normattiva_search failed: " + internal + "]"}
	ok := schemas.ToolUse{Tool: schemas.ToolLexSearch, Status: schemas.ToolOK, Summary: "[Legal Search: 1 risultati]"}
	res := schemas.TurnResult{Reply: "normattiva_search is unavailable", ToolsUsed: []schemas.ToolUse{failed, ok},
		Escalation: &schemas.Escalation{Tool: schemas.ToolGetCaseDetails, Error: internal, Advice: `{"question": "` + internal + `"}`,
			Args: json.RawMessage(`{"case_id": "c1"}`), Question: "Could you check the details you gave me?", Rung: schemas.RungAskUser}}
	body, _ := json.Marshal(res)

	got := clientTurn(res)
	if raw, _ := json.Marshal(got); strings.Contains(string(raw), "503") || got.ToolsUsed[0].Status != schemas.ToolFailed ||
		got.ToolsUsed[1].Summary != ok.Summary || got.Escalation.Question != res.Escalation.Question || got.Escalation.Tool != schemas.ToolGetCaseDetails {
		t.Errorf("clientTurn = %s", raw)
	}
	if res.ToolsUsed[0].Error != internal || res.Escalation.Error != internal {
		t.Error("clientTurn changed the result it was given")
	}

	finished, _ := json.Marshal(schemas.ToolFinishedEvent{Tool: failed.Tool, Status: failed.Status, Error: internal})
	esc, _ := json.Marshal(schemas.EscalationEvent{Rung: schemas.RungReasoner, Tool: failed.Tool, Error: internal, Advice: internal})
	okFinished, _ := json.Marshal(schemas.ToolFinishedEvent{Tool: ok.Tool, Status: ok.Status, Summary: ok.Summary})
	for _, e := range []store.Event{
		{Type: schemas.EventToolFinished, Body: finished},
		{Type: schemas.EventEscalation, Body: esc},
		{Type: schemas.EventTurnCompleted, Body: body},
	} {
		if got := clientEvent(e); strings.Contains(string(got.Body), "503") || !strings.Contains(string(got.Body), failed.Tool) {
			t.Errorf("%s for the client: %s", e.Type, got.Body)
		}
	}
	if got := clientEvent(store.Event{Type: schemas.EventToolFinished, Body: okFinished}); string(got.Body) != string(okFinished) {
		t.Errorf("a call that worked: %s, want %s", got.Body, okFinished)
	}

	recs := clientRecords([]store.Record{
		{Role: schemas.RecordTool, Content: failed.Summary, Tool: &store.ToolRecord{Name: failed.Tool, Status: failed.Status, Error: internal}},
		{Role: schemas.RecordTool, Content: ok.Summary, Tool: &store.ToolRecord{Name: ok.Tool, Status: ok.Status}},
	})
	if recs[0].Content != "" || recs[0].Tool.Error != "" || recs[0].Tool.Status != schemas.ToolFailed || recs[1].Content != ok.Summary {
		t.Errorf("records for the client: %+v, %+v", recs[0], recs[1])
	}
}

// TestClientCaseKeepsNoInternalError: the case its client reads holds its escalation
// (the tool, the rung, the question) without the error, in its status, its status
// events and case_details.escalation's attempts; staff read them as kept, and the case
// given is not changed.
func TestClientCaseKeepsNoInternalError(t *testing.T) {
	cs := store.Case{
		State: &schemas.CaseStatus{Escalation: &schemas.EscalationStatus{Tool: schemas.ToolGetCaseDetails, Error: internal,
			Rung: schemas.RungAskUser, Question: "Could you check the details you gave me?"}},
		Details: map[string]any{"summary": map[string]any{"current": "a deposit"},
			"escalation": []any{map[string]any{"rung": schemas.RungReasoner, "tool": schemas.ToolGetCaseDetails, "error": internal}}},
	}
	got := clientCase(cs)
	raw, _ := json.Marshal(got)
	if strings.Contains(string(raw), "503") || got.State.Escalation.Question != cs.State.Escalation.Question ||
		!strings.Contains(string(raw), `"rung":"reasoner"`) || !strings.Contains(string(raw), "a deposit") {
		t.Errorf("clientCase = %s", raw)
	}
	if kept, _ := json.Marshal(cs); !strings.Contains(string(kept), internal) {
		t.Error("clientCase changed the case it was given")
	}
	if kept, _ := json.Marshal(asKept.caseOf(cs)); !strings.Contains(string(kept), internal) {
		t.Error("staff's view lost the error")
	}
	status, _ := json.Marshal(cs.State)
	if e := clientEvent(store.Event{Type: schemas.EventStatus, Body: status}); strings.Contains(string(e.Body), "503") ||
		!strings.Contains(string(e.Body), schemas.RungAskUser) {
		t.Errorf("the status event as the client reads it: %s", e.Body)
	}
}
