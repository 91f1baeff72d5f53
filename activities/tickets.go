package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Tickets are the activities of support: opening a ticket, recording how support
// resumed the case, and counting the research sources' failures.
type Tickets struct {
	Cases   store.Cases
	Tickets store.Tickets
	Sources store.SourceFailures
	// Events publishes the escalation event of a ticket the ladder opened.
	Events *Publisher
}

// CreateSupportTicket is create_support_ticket, run by the SupportTicket workflow: it
// stores the ticket under its ID, once, and pauses the case for support. A ticket
// the escalation ladder opened publishes the ladder's ticket rung as an escalation
// event. The operator's ticket about a failing source (in.Source) is stored under
// schemas.OperatorCase and pauses no case; a missed deadline's (in.Deadline) is
// stored with its case and pauses it neither: the case may be closed, and the client
// has nothing to wait for.
func (a *Tickets) CreateSupportTicket(ctx context.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
	if in.Source != "" {
		t, err := a.Tickets.CreateTicket(ctx, store.Ticket{ID: in.TicketID, CaseID: schemas.OperatorCase,
			Description: in.Args.IssueDescription, Snapshot: in.Args.AgentStateSnapshot})
		if err != nil {
			return schemas.TicketResult{}, fmt.Errorf("error creating ticket: %w", err)
		}
		return schemas.TicketResult{Status: schemas.ResultSuccess, TicketID: t.ID}, nil
	}
	c, err := a.Cases.GetCase(ctx, in.Args.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return schemas.TicketResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	}
	if err != nil {
		return schemas.TicketResult{}, err
	}
	t, err := a.Tickets.CreateTicket(ctx, store.Ticket{ID: in.TicketID, CaseID: c.ID, UserID: in.UserID,
		Description: in.Args.IssueDescription, Snapshot: in.Args.AgentStateSnapshot})
	if err != nil {
		return schemas.TicketResult{}, fmt.Errorf("error creating ticket: %w", err)
	}
	if in.Deadline != "" {
		return schemas.TicketResult{Status: schemas.ResultSuccess, TicketID: t.ID}, nil
	}
	if err := a.Cases.SetPhase(ctx, c.ID, c.Phase, schemas.StatusPausedSupport); err != nil {
		return schemas.TicketResult{}, err
	}
	if e := in.Escalation; e != nil {
		ev := schemas.EscalationEventOf(*e)
		ev.TicketID = t.ID
		if err := a.Events.Publish(ctx, schemas.EventEscalation, schemas.EventEscalation, "", ev); err != nil {
			return schemas.TicketResult{}, err
		}
	}
	return schemas.TicketResult{Status: schemas.ResultSuccess, TicketID: t.ID}, nil
}

// RecordResume resolves the case's open tickets with the resumption and appends it to
// case_details.support_log. The Case workflow then moves the case on.
func (a *Tickets) RecordResume(ctx context.Context, in schemas.RecordResume) error {
	r := store.Resolution{Action: in.Resume.Action, Note: in.Resume.Note, By: in.Resume.By, At: in.Resume.At}
	if _, err := a.Tickets.ResolveTickets(ctx, in.CaseID, r); err != nil {
		return err
	}
	entry := map[string]any{"action": r.Action, "note": r.Note, "by": r.By, "at": r.At}
	_, err := a.Cases.UpdateDetails(ctx, in.CaseID, 0, opID(ctx), map[string]any{"support_log": []any{entry}})
	return permanent(err)
}
