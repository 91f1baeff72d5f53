package firestore

import (
	"context"
	"encoding/json"
	"fmt"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// RedactEvent replaces the body of the case's event numbered seq.
func (s *Store) RedactEvent(ctx context.Context, caseID string, seq int64, body json.RawMessage) error {
	_, err := s.eventRef(caseID, seq).Update(ctx, []fs.Update{{Path: "body", Value: string(body)}})
	if notFound(err) {
		return fmt.Errorf("event %d of case %s: %w", seq, caseID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("redact event %d of case %s: %w", seq, caseID, err)
	}
	return nil
}

// RedactRecord replaces the content of the case's record id.
func (s *Store) RedactRecord(ctx context.Context, caseID, id, content string) error {
	_, err := s.sub(caseID, RecordsCollection).Doc(DocID(id)).Update(ctx, []fs.Update{{Path: "content", Value: content}})
	if notFound(err) {
		return fmt.Errorf("record %s of case %s: %w", id, caseID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("redact record %s: %w", id, err)
	}
	return nil
}
