package firestore

import (
	"context"
	"fmt"
	"time"

	"github.com/lexflow/lexflow/store"
)

// sourceFailureData is one failure of a research source, under the failed call's ID.
type sourceFailureData struct {
	Tool string    `firestore:"tool"`
	At   time.Time `firestore:"at"`
}

// RecordSourceFailure creates f's document unless it exists, then reads the tool's
// failures (one equality filter: no composite index), deletes those from before the
// window and counts the rest.
func (s *Store) RecordSourceFailure(ctx context.Context, f store.SourceFailure, window time.Duration) (int, error) {
	_, err := s.doc(SourceFailuresCollection, f.ID).Create(ctx, sourceFailureData{Tool: f.Tool, At: f.At.UTC()})
	if err != nil && !exists(err) {
		return 0, fmt.Errorf("record source failure: %w", err)
	}
	snaps, err := s.client.Collection(SourceFailuresCollection).Where("tool", "==", f.Tool).Documents(ctx).GetAll()
	if err != nil {
		return 0, fmt.Errorf("count source failures: %w", err)
	}
	since, n := f.At.Add(-window), 0
	for _, snap := range snaps {
		var d sourceFailureData
		if err := snap.DataTo(&d); err != nil {
			return 0, fmt.Errorf("decode source failure %s: %w", snap.Ref.ID, err)
		}
		if !d.At.Before(since) {
			n++
			continue
		}
		if _, err := snap.Ref.Delete(ctx); err != nil && !notFound(err) {
			return 0, fmt.Errorf("forget source failure %s: %w", snap.Ref.ID, err)
		}
	}
	return n, nil
}
