package store

import "context"

// The collections Sizes counts, as CollectionSizes names them: the same names on
// every store, whatever a store calls the collection.
const (
	SizeCases         = "cases"
	SizeTranscripts   = "transcripts"
	SizeParties       = "parties"
	SizeTickets       = "support_tickets"
	SizeEvents        = "events"
	SizeDeadlines     = "deadlines"
	SizeCourtFiles    = "court_files"
	SizeMemoryFacts   = "memory_facts"
	SizeNotifications = "notifications"
)

// SizedCollections are the collections Sizes counts: what clients' cases fill (the
// cases, their transcript records, parties, support tickets and event logs, deadlines
// and linked court files) and what users accumulate (memory facts, in-app
// notifications).
var SizedCollections = []string{SizeCases, SizeTranscripts, SizeParties, SizeTickets, SizeEvents,
	SizeDeadlines, SizeCourtFiles, SizeMemoryFacts, SizeNotifications}

// Sizes counts what the store holds, for the operator's staff.
type Sizes interface {
	// CollectionSizes counts the documents of each of SizedCollections, every
	// organization's together: a count by organization would read every document on
	// FerretDB, which narrows a query by _id alone, and transcript records, parties
	// and events carry no organization. A count may be the server's estimate
	// (MongoDB's collection metadata) rather than a scan.
	CollectionSizes(ctx context.Context) (map[string]int64, error)
}
