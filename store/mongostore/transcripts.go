package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// recordDoc is a transcript record as stored.
type recordDoc struct {
	ID        string             `bson:"_id"`
	CaseID    string             `bson:"case_id"`
	UserID    string             `bson:"user_id"`
	TurnID    string             `bson:"turn_id"`
	TurnNo    int                `bson:"turn_no"`
	Seq       int                `bson:"seq"`
	Role      schemas.RecordRole `bson:"role"`
	Content   string             `bson:"content"`
	Tool      *store.ToolRecord  `bson:"tool,omitempty"`
	CreatedAt time.Time          `bson:"created_at"`
}

// AppendRecords inserts records, skipping those whose ID is stored already, and on
// FerretDB adds each, as stored, to its turn's document (see turns.go).
func (s *Store) AppendRecords(ctx context.Context, recs ...store.Record) error {
	stored := make([]recordDoc, 0, len(recs))
	for _, r := range recs {
		doc := recordDoc(r)
		_, err := s.transcripts.InsertOne(ctx, doc)
		if mongo.IsDuplicateKeyError(err) && s.turns != nil {
			err = s.transcripts.FindOne(ctx, bson.M{"_id": doc.ID}).Decode(&doc)
		}
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("insert transcript record: %w", err)
		}
		stored = append(stored, doc)
	}
	if s.turns == nil {
		return nil
	}
	return s.storeTurns(ctx, stored)
}

// ListRecords returns a case's records in turn order: on FerretDB from its turns'
// documents (see turns.go).
func (s *Store) ListRecords(ctx context.Context, caseID string, beforeTurn, limit int) ([]store.Record, error) {
	if s.turns != nil {
		return s.listTurns(ctx, caseID, beforeTurn, limit)
	}
	filter := bson.M{"case_id": caseID}
	if beforeTurn > 0 {
		filter["turn_no"] = bson.M{"$lt": beforeTurn}
	}
	opts := options.Find().SetSort(bson.D{{Key: "turn_no", Value: -1}, {Key: "seq", Value: -1}})
	if limit > 0 {
		opts.SetLimit(int64(limit))
	}
	docs, err := findAll[recordDoc](ctx, s.transcripts, filter, "transcript", opts)
	if err != nil {
		return nil, err
	}
	out := make([]store.Record, len(docs))
	for i, d := range docs {
		out[len(docs)-1-i] = store.Record(d)
	}
	return out, nil
}
