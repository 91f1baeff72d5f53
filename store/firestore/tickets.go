package firestore

import (
	"context"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// ticketData is a support ticket as stored, in its case's tickets subcollection.
type ticketData struct {
	ID          string         `firestore:"id"`
	UserID      string         `firestore:"user_id"`
	Description string         `firestore:"issue_description"`
	Snapshot    map[string]any `firestore:"agent_state_snapshot,omitempty"`
	Status      string         `firestore:"status"`
	CreatedAt   time.Time      `firestore:"created_at"`
	Resolution  *resolution    `firestore:"resolution,omitempty"`
}

// resolution is store.Resolution as stored.
type resolution struct {
	Action string    `firestore:"action"`
	Note   string    `firestore:"note"`
	By     string    `firestore:"by"`
	At     time.Time `firestore:"at"`
}

func (d ticketData) ticket(caseID string) store.Ticket {
	return store.Ticket{ID: d.ID, CaseID: caseID, UserID: d.UserID, Description: d.Description, Snapshot: d.Snapshot,
		Status: d.Status, CreatedAt: d.CreatedAt, Resolution: (*store.Resolution)(d.Resolution)}
}

// CreateTicket creates the ticket's document unless it exists, and returns the stored
// ticket.
func (s *Store) CreateTicket(ctx context.Context, t store.Ticket) (store.Ticket, error) {
	ref := s.sub(t.CaseID, TicketsCollection).Doc(DocID(t.ID))
	d := ticketData{ID: t.ID, UserID: t.UserID, Description: t.Description, Snapshot: t.Snapshot,
		Status: store.TicketOpen, CreatedAt: time.Now().UTC()}
	if _, err := ref.Create(ctx, d); err != nil && !exists(err) {
		return store.Ticket{}, fmt.Errorf("store ticket: %w", err)
	}
	d, err := read[ticketData](ctx, nil, ref, "ticket "+t.ID)
	if err != nil {
		return store.Ticket{}, err
	}
	return d.ticket(t.CaseID), nil
}

// ListTickets returns a case's tickets, oldest first.
func (s *Store) ListTickets(ctx context.Context, caseID string) ([]store.Ticket, error) {
	docs, err := all[ticketData](ctx, s.sub(caseID, TicketsCollection).OrderBy("created_at", fs.Asc).OrderBy("id", fs.Asc))
	if err != nil {
		return nil, fmt.Errorf("read tickets: %w", err)
	}
	out := make([]store.Ticket, len(docs))
	for i, d := range docs {
		out[i] = d.ticket(caseID)
	}
	return out, nil
}

// ResolveTickets resolves a case's open tickets in one transaction.
func (s *Store) ResolveTickets(ctx context.Context, caseID string, r store.Resolution) (int, error) {
	var n int
	err := s.update(ctx, s.caseDoc(caseID), func(ctx context.Context, tx *fs.Transaction) error {
		snaps, err := tx.Documents(s.sub(caseID, TicketsCollection).Where("status", "==", store.TicketOpen)).GetAll()
		if err != nil {
			return err
		}
		for _, snap := range snaps {
			err := tx.Update(snap.Ref, []fs.Update{{Path: "status", Value: store.TicketResolved},
				{Path: "resolution", Value: resolution{Action: r.Action, Note: r.Note, By: r.By, At: r.At.UTC()}}})
			if err != nil {
				return err
			}
		}
		n = len(snaps)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("resolve tickets: %w", err)
	}
	return n, nil
}
