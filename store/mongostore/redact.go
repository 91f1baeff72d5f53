package mongostore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/lexflow/lexflow/store"
)

// RedactEvent replaces the body of the case's event numbered seq.
func (s *Store) RedactEvent(ctx context.Context, caseID string, seq int64, body json.RawMessage) error {
	res, err := s.events.UpdateOne(ctx, bson.M{"_id": eventKey(caseID, seq)}, bson.M{"$set": bson.M{"body": string(body)}})
	if err != nil {
		return fmt.Errorf("redact event %d of case %s: %w", seq, caseID, err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("event %d of case %s: %w", seq, caseID, store.ErrNotFound)
	}
	return nil
}

// RedactRecord replaces the content and the shown text of the case's record id, and
// on FerretDB of its copy in its turn's document (see turns.go).
func (s *Store) RedactRecord(ctx context.Context, caseID, id, content string) error {
	var doc recordDoc
	err := s.transcripts.FindOne(ctx, bson.M{"_id": id}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) || err == nil && doc.CaseID != caseID {
		return fmt.Errorf("record %s of case %s: %w", id, caseID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("read record %s: %w", id, err)
	}
	set := bson.M{"content": content}
	if doc.Tool != nil {
		set["tool.shown"] = content
	}
	if _, err := s.transcripts.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": set}); err != nil {
		return fmt.Errorf("redact record %s: %w", id, err)
	}
	if s.turns == nil {
		return nil
	}
	defer s.lock("turns:" + caseID)()
	turn, found, err := s.turnAt(ctx, caseID, doc.TurnNo)
	if err != nil || !found {
		return err
	}
	for i := range turn.Records {
		if turn.Records[i].ID == id {
			turn.Records[i].Content = content
			if t := turn.Records[i].Tool; t != nil {
				t.Shown = content
			}
		}
	}
	if _, err := s.turns.UpdateOne(ctx, bson.M{"_id": turn.ID}, bson.M{"$set": bson.M{"records": turn.Records}}); err != nil {
		return fmt.Errorf("redact record %s in its turn: %w", id, err)
	}
	return nil
}
