package firestore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// How a case's event log is kept: each event is a document of the case's events
// subcollection under its number ("%020d"), and beside it, in event_ids, a document
// under the event's ID that holds the number. One transaction reads the last number
// and the IDs of the events to append and writes the new ones, so numbers have no gaps,
// a number is visible only with those before it, and an ID is stored once.

// eventIDsCollection is the subcollection of a case that maps event IDs to numbers.
const eventIDsCollection = "event_ids"

// eventData is an event as stored.
type eventData struct {
	Seq    int64     `firestore:"seq"`
	EID    string    `firestore:"eid"`
	Type   string    `firestore:"type"`
	TurnID string    `firestore:"turn_id,omitempty"`
	At     time.Time `firestore:"at"`
	Body   string    `firestore:"body,omitempty"`
}

func (d eventData) event(caseID string) store.Event {
	e := store.Event{CaseID: caseID, Seq: d.Seq, ID: d.EID, Type: d.Type, TurnID: d.TurnID, At: d.At}
	if d.Body != "" {
		e.Body = json.RawMessage(d.Body)
	}
	return e
}

// eventNumber is what event_ids holds for an event ID.
type eventNumber struct {
	Seq int64 `firestore:"seq"`
}

// eventRef is the document of a case's event number seq.
func (s *Store) eventRef(caseID string, seq int64) *fs.DocumentRef {
	return s.sub(caseID, EventsCollection).Doc(fmt.Sprintf("%020d", seq))
}

// AppendEvents stores events at the end of the case's log, in order, in one
// transaction (see the comment at the top of this file).
func (s *Store) AppendEvents(ctx context.Context, caseID string, events ...store.Event) ([]store.Event, error) {
	for _, e := range events {
		if e.ID == "" || e.Type == "" {
			return nil, fmt.Errorf("an event needs an ID and a type, got %q, %q", e.ID, e.Type)
		}
	}
	idRefs := make([]*fs.DocumentRef, len(events))
	for i, e := range events {
		idRefs[i] = s.sub(caseID, eventIDsCollection).Doc(DocID(e.ID))
	}
	var out []store.Event
	// Appends take the case document's lock, which its updates take too.
	err := s.update(ctx, s.caseDoc(caseID), func(ctx context.Context, tx *fs.Transaction) error {
		// Every read comes before the first write, as Firestore's transactions ask.
		last, err := lastSeq(tx.Documents(s.lastEventQuery(caseID)))
		if err != nil {
			return err
		}
		stored, err := s.storedEvents(tx, caseID, idRefs)
		if err != nil {
			return err
		}
		out = make([]store.Event, len(events))
		for i, e := range events {
			if had, ok := stored[e.ID]; ok {
				out[i] = had
				continue
			}
			last++
			d := eventData{Seq: last, EID: e.ID, Type: e.Type, TurnID: e.TurnID, At: e.At.UTC(), Body: string(e.Body)}
			if err := tx.Create(s.eventRef(caseID, last), d); err != nil {
				return err
			}
			if err := tx.Set(idRefs[i], eventNumber{Seq: last}); err != nil {
				return err
			}
			out[i] = d.event(caseID)
			stored[e.ID] = out[i]
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store events: %w", err)
	}
	return out, nil
}

// storedEvents reads, in tx, the events of the case that idRefs name and the log
// holds, by their IDs.
func (s *Store) storedEvents(tx *fs.Transaction, caseID string, idRefs []*fs.DocumentRef) (map[string]store.Event, error) {
	numbers, err := tx.GetAll(idRefs)
	if err != nil {
		return nil, err
	}
	var refs []*fs.DocumentRef
	for _, snap := range numbers {
		var n eventNumber
		if !snap.Exists() {
			continue
		}
		if err := snap.DataTo(&n); err != nil {
			return nil, err
		}
		refs = append(refs, s.eventRef(caseID, n.Seq))
	}
	stored := map[string]store.Event{}
	if len(refs) == 0 {
		return stored, nil
	}
	snaps, err := tx.GetAll(refs)
	if err != nil {
		return nil, err
	}
	for _, snap := range snaps {
		var d eventData
		if !snap.Exists() {
			continue
		}
		if err := snap.DataTo(&d); err != nil {
			return nil, err
		}
		stored[d.EID] = d.event(caseID)
	}
	return stored, nil
}

// lastEventQuery finds a case's last event.
func (s *Store) lastEventQuery(caseID string) fs.Query {
	return s.sub(caseID, EventsCollection).OrderBy("seq", fs.Desc).Limit(1)
}

// lastSeq is the number of the one event it iterates over, 0 for none.
func lastSeq(it *fs.DocumentIterator) (int64, error) {
	docs, err := it.GetAll()
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	var d eventData
	if err := docs[0].DataTo(&d); err != nil {
		return 0, err
	}
	return d.Seq, nil
}

// LastEventSeq is the number of the case's last stored event, 0 for none.
func (s *Store) LastEventSeq(ctx context.Context, caseID string) (int64, error) {
	seq, err := lastSeq(s.lastEventQuery(caseID).Documents(ctx))
	if err != nil {
		return 0, fmt.Errorf("read the last event: %w", err)
	}
	return seq, nil
}

// ListEvents returns the case's events numbered above after, in order, at most limit
// (1000 when limit <= 0).
func (s *Store) ListEvents(ctx context.Context, caseID string, after int64, limit int) ([]store.Event, error) {
	if limit <= 0 {
		limit = 1000
	}
	docs, err := all[eventData](ctx, s.sub(caseID, EventsCollection).Where("seq", ">", after).OrderBy("seq", fs.Asc).Limit(limit))
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	out := make([]store.Event, len(docs))
	for i, d := range docs {
		out[i] = d.event(caseID)
	}
	return out, nil
}
