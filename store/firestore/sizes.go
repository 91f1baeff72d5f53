package firestore

import (
	"context"
	"fmt"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// CollectionSizes counts each sized collection's documents with an aggregation
// query, which reads index entries rather than documents (Firestore bills one read
// per thousand). A case's records, parties, tickets and events are subcollections of
// its document, counted across cases as collection groups.
func (s *Store) CollectionSizes(ctx context.Context) (map[string]int64, error) {
	out := make(map[string]int64, len(store.SizedCollections))
	for name, q := range map[string]fs.Query{
		store.SizeCases:         s.client.Collection(CasesCollection).Query,
		store.SizeTranscripts:   s.client.CollectionGroup(RecordsCollection).Query,
		store.SizeParties:       s.client.CollectionGroup(PartiesCollection).Query,
		store.SizeTickets:       s.client.CollectionGroup(TicketsCollection).Query,
		store.SizeEvents:        s.client.CollectionGroup(EventsCollection).Query,
		store.SizeDeadlines:     s.client.Collection(DeadlinesCollection).Query,
		store.SizeCourtFiles:    s.client.Collection(CourtFilesCollection).Query,
		store.SizeMemoryFacts:   s.client.Collection(MemoryFactsCollection).Query,
		store.SizeNotifications: s.client.Collection(NotificationsCollection).Query,
	} {
		n, err := count(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("count %s: %w", name, err)
		}
		out[name] = int64(n)
	}
	return out, nil
}
