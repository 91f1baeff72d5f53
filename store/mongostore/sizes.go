package mongostore

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/lexflow/lexflow/store"
)

// CollectionSizes asks the server for each sized collection's document count: from
// the collection's metadata on MongoDB, without a scan; FerretDB counts them.
func (s *Store) CollectionSizes(ctx context.Context) (map[string]int64, error) {
	out := make(map[string]int64, len(store.SizedCollections))
	for name, coll := range map[string]*mongo.Collection{
		store.SizeCases: s.cases, store.SizeTranscripts: s.transcripts, store.SizeParties: s.parties,
		store.SizeTickets: s.tickets, store.SizeEvents: s.events, store.SizeDeadlines: s.deadlines,
		store.SizeCourtFiles: s.courtFiles, store.SizeMemoryFacts: s.memoryFacts, store.SizeNotifications: s.notifications,
	} {
		n, err := coll.EstimatedDocumentCount(ctx)
		if err != nil {
			return nil, fmt.Errorf("count %s: %w", coll.Name(), err)
		}
		out[name] = n
	}
	return out, nil
}
