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

// RedactRecord replaces the content, and a tool record's shown text, of the case's
// record id.
func (s *Store) RedactRecord(ctx context.Context, caseID, id, content string) error {
	ref := s.sub(caseID, RecordsCollection).Doc(DocID(id))
	err := s.client.RunTransaction(ctx, func(ctx context.Context, tx *fs.Transaction) error {
		snap, err := tx.Get(ref)
		if err != nil {
			return err
		}
		updates := []fs.Update{{Path: "content", Value: content}}
		if tool, _ := snap.DataAt("tool"); tool != nil {
			updates = append(updates, fs.Update{Path: "tool.shown", Value: content})
		}
		return tx.Update(ref, updates)
	})
	if notFound(err) {
		return fmt.Errorf("record %s of case %s: %w", id, caseID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("redact record %s: %w", id, err)
	}
	return nil
}
