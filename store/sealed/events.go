package sealed

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// AppendEvents seals each event's body whole, as a JSON string.
func (s *Store) AppendEvents(ctx context.Context, caseID string, events ...store.Event) ([]store.Event, error) {
	k, err := s.caseKey(ctx, caseID)
	if err != nil {
		return nil, err
	}
	sealed := make([]store.Event, len(events))
	for i, e := range events {
		if len(e.Body) > 0 {
			body, _ := json.Marshal(sealBytes(k, e.Body)) // a string always marshals
			e.Body = body
		}
		sealed[i] = e
	}
	stored, err := s.Store.AppendEvents(ctx, caseID, sealed...)
	if err != nil {
		return nil, err
	}
	return openEvents(openerOf(k), stored)
}

// ListEvents opens the events' bodies.
func (s *Store) ListEvents(ctx context.Context, caseID string, after int64, limit int) ([]store.Event, error) {
	events, err := s.Store.ListEvents(ctx, caseID, after, limit)
	if err != nil || len(events) == 0 {
		return events, err
	}
	return openEvents(s.opener(ctx, keys.CaseKeyID(caseID)), events)
}

func openEvents(o *opener, events []store.Event) ([]store.Event, error) {
	for i, e := range events {
		var s string
		if json.Unmarshal(e.Body, &s) != nil {
			continue // a body written before sealing, or none
		}
		body, sealed, err := openBytes(o, s)
		if err != nil {
			return nil, fmt.Errorf("event %d of case %s: %w", e.Seq, e.CaseID, err)
		}
		if sealed {
			events[i].Body = body
		}
	}
	return events, nil
}
