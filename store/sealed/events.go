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
			body, _ := json.Marshal(prefix + sealRaw(k, e.Body)) // a string always marshals
			e.Body = body
		}
		sealed[i] = e
	}
	stored, err := s.Store.AppendEvents(ctx, caseID, sealed...)
	if err != nil {
		return nil, err
	}
	return openEvents(k, stored)
}

// ListEvents opens the events' bodies.
func (s *Store) ListEvents(ctx context.Context, caseID string, after int64, limit int) ([]store.Event, error) {
	events, err := s.Store.ListEvents(ctx, caseID, after, limit)
	if err != nil || len(events) == 0 {
		return events, err
	}
	k, err := s.caseKey(ctx, caseID)
	if err != nil {
		return nil, err
	}
	return openEvents(k, events)
}

// sealRaw seals JSON bytes as they are, in base64 without the prefix.
func sealRaw(k *keys.Key, raw json.RawMessage) string {
	return encoding.EncodeToString(k.Seal(raw, []byte(k.ID)))
}

func openEvents(k *keys.Key, events []store.Event) ([]store.Event, error) {
	for i, e := range events {
		var s string
		if json.Unmarshal(e.Body, &s) != nil {
			continue // a body written before sealing, or none
		}
		b64, ok := cutPrefix(s)
		if !ok {
			continue
		}
		sealed, err := encoding.DecodeString(b64)
		if err == nil {
			events[i].Body, err = k.Open(sealed, []byte(k.ID))
		}
		if err != nil {
			return nil, fmt.Errorf("event %d of case %s: %w", e.Seq, e.CaseID, err)
		}
	}
	return events, nil
}
