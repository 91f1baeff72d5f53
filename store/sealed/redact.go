package sealed

import (
	"context"
	"encoding/json"
)

// RedactEvent seals the new body whole, as AppendEvents does.
func (s *Store) RedactEvent(ctx context.Context, caseID string, seq int64, body json.RawMessage) error {
	if len(body) > 0 {
		k, err := s.caseKey(ctx, caseID)
		if err != nil {
			return err
		}
		body, _ = json.Marshal(sealBytes(k, body)) // a string always marshals
	}
	return s.Store.RedactEvent(ctx, caseID, seq, body)
}

// RedactRecord seals the new content, as AppendRecords does; the backend writes it
// over the record's shown text too.
func (s *Store) RedactRecord(ctx context.Context, caseID, id, content string) error {
	k, err := s.caseKey(ctx, caseID)
	if err != nil {
		return err
	}
	return s.Store.RedactRecord(ctx, caseID, id, sealString(k, content))
}
