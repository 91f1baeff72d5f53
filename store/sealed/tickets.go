package sealed

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// CreateTicket seals the ticket's description, snapshot and resolution note.
func (s *Store) CreateTicket(ctx context.Context, t store.Ticket) (store.Ticket, error) {
	k, err := s.caseKey(ctx, t.CaseID)
	if err != nil {
		return store.Ticket{}, err
	}
	t.Description = sealString(k, t.Description)
	t.Snapshot = sealMap(k, t.Snapshot)
	if t.Resolution != nil {
		r := *t.Resolution
		r.Note = sealString(k, r.Note)
		t.Resolution = &r
	}
	stored, err := s.Store.CreateTicket(ctx, t)
	if err != nil {
		return store.Ticket{}, err
	}
	return openTicket(openerOf(k), stored)
}

// ListTickets opens the tickets.
func (s *Store) ListTickets(ctx context.Context, caseID string) ([]store.Ticket, error) {
	ts, err := s.Store.ListTickets(ctx, caseID)
	if err != nil || len(ts) == 0 {
		return ts, err
	}
	o := s.opener(ctx, keys.CaseKeyID(caseID))
	for i := range ts {
		if ts[i], err = openTicket(o, ts[i]); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// ResolveTickets seals the resolution's note.
func (s *Store) ResolveTickets(ctx context.Context, caseID string, r store.Resolution) (int, error) {
	k, err := s.caseKey(ctx, caseID)
	if err != nil {
		return 0, err
	}
	r.Note = sealString(k, r.Note)
	return s.Store.ResolveTickets(ctx, caseID, r)
}

func openTicket(o *opener, t store.Ticket) (store.Ticket, error) {
	var err error
	if t.Description, err = openString(o, t.Description); err == nil {
		t.Snapshot, err = openMap(o, t.Snapshot)
	}
	if err == nil && t.Resolution != nil {
		r := *t.Resolution
		r.Note, err = openString(o, r.Note)
		t.Resolution = &r
	}
	if err != nil {
		return store.Ticket{}, fmt.Errorf("ticket %s: %w", t.ID, err)
	}
	return t, nil
}
