package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/lexflow/lexflow/store"
)

// sourceFailureDoc is one failure of a research source, under the failed call's ID.
type sourceFailureDoc struct {
	ID   string    `bson:"_id"`
	Tool string    `bson:"tool"`
	At   time.Time `bson:"at"`
}

// RecordSourceFailure inserts f unless its ID is stored, deletes the tool's failures
// from before the window and counts the rest.
func (s *Store) RecordSourceFailure(ctx context.Context, f store.SourceFailure, window time.Duration) (int, error) {
	_, err := s.sourceFailures.InsertOne(ctx, sourceFailureDoc{ID: f.ID, Tool: f.Tool, At: f.At.UTC()})
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return 0, fmt.Errorf("record source failure: %w", err)
	}
	since := f.At.Add(-window).UTC()
	if _, err := s.sourceFailures.DeleteMany(ctx, bson.M{"tool": f.Tool, "at": bson.M{"$lt": since}}); err != nil {
		return 0, fmt.Errorf("forget source failures: %w", err)
	}
	n, err := s.sourceFailures.CountDocuments(ctx, bson.M{"tool": f.Tool, "at": bson.M{"$gte": since}})
	if err != nil {
		return 0, fmt.Errorf("count source failures: %w", err)
	}
	return int(n), nil
}
