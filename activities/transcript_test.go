package activities

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestAttackOversizedArgsNotKept (issue 36, suspicion "refused oversized tool
// arguments stored raw in the transcript", which held): a call whose arguments the
// turn refused for their size keeps a note of their size in the transcript and in
// turn.completed, not the arguments; a call of ordinary size keeps its own.
func TestAttackOversizedArgsNotKept(t *testing.T) {
	ctx := t.Context()
	caseID := uuid.NewString()
	turnID := schemas.TurnWorkflowID(caseID, 1)
	huge, _ := json.Marshal(map[string]any{"updates": map[string]any{"summary.current": strings.Repeat("canary ", 20000)}})
	res := schemas.TurnResult{TurnID: turnID, Reply: "done", ToolsUsed: []schemas.ToolUse{
		{Tool: schemas.ToolUpdateCaseDetails, Args: huge, Status: schemas.ToolInvalid, Error: "the arguments have 140031 bytes; the limit is 65536"},
		{Tool: schemas.ToolGetCaseDetails, Args: json.RawMessage(`{"case_id":"x"}`), Status: schemas.ToolOK},
	}}
	transcript := &Transcript{Store: st, Parties: st, Events: &Publisher{Events: st}}
	if err := runAsActivity(turnID, func(ctx context.Context) error {
		return transcript.RecordTurn(ctx, schemas.RecordTurn{CaseID: caseID, TurnNo: 1, Result: res, At: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	recs, err := st.ListRecords(ctx, caseID, 2, 0)
	if err != nil || len(recs) != 3 {
		t.Fatalf("records %+v, %v", recs, err)
	}
	for _, r := range recs {
		if strings.Contains(r.Content, "canary") || r.Tool != nil && strings.Contains(r.Tool.Args, "canary") {
			t.Errorf("the transcript keeps the refused arguments: %.200v", r.Tool.Args)
		}
	}
	if got := recs[0].Tool; got == nil || !strings.Contains(got.Args, "not kept") {
		t.Errorf("the refused call's record = %+v, want a note of the arguments' size", got)
	}
	if got := recs[1].Tool; got == nil || got.Args != `{"case_id":"x"}` {
		t.Errorf("the ordinary call's record = %+v", got)
	}
	events, err := st.ListEvents(ctx, caseID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if strings.Contains(string(e.Body), "canary") {
			t.Errorf("%s keeps the refused arguments", e.Type)
		}
	}
	if len(res.ToolsUsed[0].Args) != len(huge) {
		t.Error("RecordTurn changed its input")
	}
}

// A notice the model wrote (tiering's justification or question) reaches the client's
// transcript and events re-identified, as a reply does.
func TestNoticeIsReidentified(t *testing.T) {
	ctx := t.Context()
	caseID := uuid.NewString()
	if _, err := st.AddParty(ctx, store.Party{CaseID: caseID, FirstName: "Ion", LastName: "Popescu"}); err != nil {
		t.Fatal(err)
	}
	transcript := &Transcript{Store: st, Parties: st, Events: &Publisher{Events: st}}
	if err := runAsActivity(schemas.CaseWorkflowID(caseID), func(ctx context.Context) error {
		return transcript.RecordNotice(ctx, schemas.Notice{CaseID: caseID, N: 1, Role: schemas.RecordAssistant,
			Text: "Case tier: 2. {{party0.fullName}} is sued in court.", At: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	recs, err := st.ListRecords(ctx, caseID, 0, 0)
	if err != nil || len(recs) != 1 || recs[0].Content != "Case tier: 2. Ion Popescu is sued in court." {
		t.Fatalf("records %+v, %v; want the notice with the party's name", recs, err)
	}
}

// TestRecordTurnKeepsWhatTheModelRead: a tool record keeps its 900-character summary
// as its content, which the API's transcript and events show, and the whole text the
// model read of the result apart, for later turns' model calls.
func TestRecordTurnKeepsWhatTheModelRead(t *testing.T) {
	ctx := t.Context()
	caseID := uuid.NewString()
	turnID := schemas.TurnWorkflowID(caseID, 1)
	plan := "The reasoner's answer:\n" + strings.Repeat("Plan step. ", 300)
	res := schemas.TurnResult{TurnID: turnID, Reply: "done", ToolsUsed: []schemas.ToolUse{
		{Tool: schemas.ToolConsultReasoner, Args: json.RawMessage(`{}`), Status: schemas.ToolOK, Summary: plan[:900]},
	}}
	transcript := &Transcript{Store: st, Parties: st, Events: &Publisher{Events: st}}
	if err := runAsActivity(turnID, func(ctx context.Context) error {
		return transcript.RecordTurn(ctx, schemas.RecordTurn{CaseID: caseID, TurnNo: 1, Result: res, Shown: []string{plan}, At: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	recs, err := st.ListRecords(ctx, caseID, 0, 0)
	if err != nil || len(recs) != 2 || recs[0].Tool == nil {
		t.Fatalf("records %+v, %v", recs, err)
	}
	if recs[0].Content != plan[:900] || recs[0].Tool.Shown != plan {
		t.Errorf("tool record: content of %d characters, shown text of %d; want 900 and %d", len(recs[0].Content), len(recs[0].Tool.Shown), len(plan))
	}
	raw, _ := json.Marshal(recs[0]) // as GET /v1/cases/{id}/messages shows it
	bodies := []string{string(raw)}
	events, err := st.ListEvents(ctx, caseID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		bodies = append(bodies, string(e.Body))
	}
	for _, body := range bodies {
		if strings.Contains(body, plan[:1000]) {
			t.Errorf("the whole text leaks past the transcript's summary: %.300s", body)
		}
	}
}
