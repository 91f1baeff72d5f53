package activities

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// TestRecordEscalationKeepsTheLatest: every attempt is appended to
// case_details.escalation, which keeps the latest MaxEscalationRecords.
func TestRecordEscalationKeepsTheLatest(t *testing.T) {
	ctx := context.Background()
	a := &Cases{Store: st}
	id := newCase(t, "escalation")
	at := time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
	total := schemas.MaxEscalationRecords + 5
	for i := 0; i < total; i += 10 {
		var batch []schemas.EscalationAttempt
		for j := i; j < min(i+10, total); j++ {
			batch = append(batch, schemas.EscalationAttempt{N: j, Rung: schemas.RungReasoner, Tool: schemas.ToolGetCaseDetails,
				Error: fmt.Sprintf("error %d", j), At: at.Add(time.Duration(j) * time.Second)})
		}
		if err := a.RecordEscalation(ctx, schemas.RecordEscalation{CaseID: id, Attempts: batch}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := st.GetCase(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := c.Details["escalation"].([]any)
	if len(kept) != schemas.MaxEscalationRecords {
		t.Fatalf("case_details.escalation holds %d attempts, want %d", len(kept), schemas.MaxEscalationRecords)
	}
	first, last := kept[0].(map[string]any), kept[len(kept)-1].(map[string]any)
	if first["error"] != "error 5" || last["error"] != fmt.Sprintf("error %d", total-1) || last["tool"] != schemas.ToolGetCaseDetails ||
		last["rung"] != schemas.RungReasoner {
		t.Errorf("kept from %v to %v; want the latest %d", first, last, schemas.MaxEscalationRecords)
	}
	if err := a.RecordEscalation(ctx, schemas.RecordEscalation{CaseID: "missing", Attempts: []schemas.EscalationAttempt{{Tool: "x"}}}); err != nil {
		t.Errorf("a case no longer stored: %v, want nothing to record", err)
	}
}

// TestSourceTicketPausesNoCase: the operator's ticket about a failing source is stored
// once under OperatorCase, and touches no case.
func TestSourceTicketPausesNoCase(t *testing.T) {
	ctx := context.Background()
	a := &Tickets{Cases: st, Tickets: st}
	tool := fmt.Sprint("kb_search_", time.Now().UnixNano())
	in := schemas.SupportTicketInput{TicketID: schemas.SourceTicketID(tool, time.Now()), Source: tool,
		Args: schemas.CreateSupportTicketArgs{IssueDescription: tool + " failed 5 times"}}
	for range 2 {
		got, err := a.CreateSupportTicket(ctx, in)
		if err != nil || got.Status != schemas.ResultSuccess || got.TicketID != in.TicketID {
			t.Fatalf("ticket: %+v, %v", got, err)
		}
	}
	tickets, err := st.ListTickets(ctx, schemas.OperatorCase)
	n := 0
	for _, tk := range tickets {
		if tk.ID == in.TicketID {
			n++
		}
	}
	if err != nil || n != 1 {
		t.Errorf("operator tickets = %+v, %v; want %s once", tickets, err, in.TicketID)
	}
}

// TestRecordSourceFailureCounts: failures of one source count up across calls, each
// call's ID once.
func TestRecordSourceFailureCounts(t *testing.T) {
	ctx := context.Background()
	a := &Tickets{Sources: st}
	tool, now := fmt.Sprint("normattiva_search_", time.Now().UnixNano()), time.Now()
	for i := 1; i <= 3; i++ {
		for range 2 { // a retried activity counts once
			got, err := a.RecordSourceFailure(ctx, schemas.RecordSourceFailure{ID: fmt.Sprint(tool, i), Tool: tool, Reason: "503", At: now})
			if err != nil || got.Failures != i {
				t.Fatalf("failure %d: %+v, %v", i, got, err)
			}
		}
	}
}
