package activities

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// newCase stores a case for a test and returns its ID.
func newCase(t *testing.T, prefix string) string {
	t.Helper()
	id := fmt.Sprint(prefix, "-", time.Now().UnixNano())
	if _, err := st.CreateCase(context.Background(), store.Case{ID: id, UserID: "u", Phase: schemas.PhaseActive,
		Status: schemas.StatusOpen, Details: store.NewDetails("d")}); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestCreateSupportTicketOncePausesTheCase(t *testing.T) {
	ctx := context.Background()
	a := &Tickets{Cases: st, Tickets: st}
	id := newCase(t, "ticket")
	in := schemas.SupportTicketInput{TicketID: schemas.TicketWorkflowID(id, 1), UserID: "u",
		Args: schemas.CreateSupportTicketArgs{CaseID: id, IssueDescription: "LEXE is down", AgentStateSnapshot: map[string]any{"tool": "normattiva_search"}}}
	for range 2 {
		got, err := a.CreateSupportTicket(ctx, in)
		if err != nil || got.Status != schemas.ResultSuccess || got.TicketID != in.TicketID {
			t.Fatalf("ticket: %+v, %v", got, err)
		}
	}
	if tickets, err := st.ListTickets(ctx, id); err != nil || len(tickets) != 1 || tickets[0].Status != "open" {
		t.Errorf("tickets = %+v, %v; want one open", tickets, err)
	}
	if c, err := st.GetCase(ctx, id); err != nil || c.Status != schemas.StatusPausedSupport {
		t.Errorf("case status = %q, %v", c.Status, err)
	}
	missing := in
	missing.Args.CaseID = "missing"
	if got, _ := a.CreateSupportTicket(ctx, missing); got.ErrorMessage != schemas.CaseNotFound {
		t.Errorf("a missing case: %+v", got)
	}
}
