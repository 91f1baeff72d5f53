package mongostore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// How a case's event log is kept: the insert of an event under the number after the
// case's last stored one (_id "<case>/<seq>") both takes the number and commits the
// event, so a number is stored only once the one before it is, and no number is ever
// left out. A writer that loses the number to another writer reads the last one again
// and retries. The unique index on (case_id, eid) makes appends idempotent: an event
// whose ID is stored is found, not stored again.

// appendAttempts bounds how often one event loses its number to other writers (in
// other processes: a process's own writers of a case take turns).
const appendAttempts = 32

// eventDoc is an event as stored.
type eventDoc struct {
	ID     string    `bson:"_id"`
	CaseID string    `bson:"case_id"`
	Seq    int64     `bson:"seq"`
	EID    string    `bson:"eid"`
	Type   string    `bson:"type"`
	TurnID string    `bson:"turn_id,omitempty"`
	At     time.Time `bson:"at"`
	Body   string    `bson:"body,omitempty"`
}

func (d eventDoc) event() store.Event {
	e := store.Event{CaseID: d.CaseID, Seq: d.Seq, ID: d.EID, Type: d.Type, TurnID: d.TurnID, At: d.At}
	if d.Body != "" {
		e.Body = json.RawMessage(d.Body)
	}
	return e
}

// AppendEvents stores events at the end of the case's log, in order (see the comment
// at the top of this file).
func (s *Store) AppendEvents(ctx context.Context, caseID string, events ...store.Event) ([]store.Event, error) {
	defer s.lock("events:" + caseID)()
	out := make([]store.Event, 0, len(events))
	for _, e := range events {
		stored, err := s.appendEvent(ctx, caseID, e)
		if err != nil {
			return out, err
		}
		out = append(out, stored)
	}
	return out, nil
}

func (s *Store) appendEvent(ctx context.Context, caseID string, e store.Event) (store.Event, error) {
	if e.ID == "" || e.Type == "" {
		return store.Event{}, fmt.Errorf("an event needs an ID and a type, got %q, %q", e.ID, e.Type)
	}
	for range appendAttempts {
		if stored, ok, err := s.storedEvent(ctx, caseID, e.ID); err != nil || ok {
			return stored, err
		}
		last, err := s.lastSeq(ctx, caseID)
		if err != nil {
			return store.Event{}, err
		}
		d := eventDoc{ID: fmt.Sprintf("%s/%020d", caseID, last+1), CaseID: caseID, Seq: last + 1, EID: e.ID, Type: e.Type,
			TurnID: e.TurnID, At: e.At.UTC(), Body: string(e.Body)}
		_, err = s.events.InsertOne(ctx, d)
		if err == nil {
			return d.event(), nil
		}
		if !mongo.IsDuplicateKeyError(err) {
			return store.Event{}, fmt.Errorf("store event %s: %w", e.ID, err)
		}
		// Another writer took the number, or stored this very event: look again.
	}
	return store.Event{}, fmt.Errorf("store event %s: other writers took %d numbers in a row", e.ID, appendAttempts)
}

// storedEvent finds the case's event with that ID, if it is stored.
func (s *Store) storedEvent(ctx context.Context, caseID, id string) (store.Event, bool, error) {
	var d eventDoc
	err := s.events.FindOne(ctx, bson.M{"case_id": caseID, "eid": id}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return store.Event{}, false, nil
	}
	if err != nil {
		return store.Event{}, false, fmt.Errorf("find event %s: %w", id, err)
	}
	return d.event(), true, nil
}

// lastSeq is the number of the case's last stored event, 0 for none.
func (s *Store) lastSeq(ctx context.Context, caseID string) (int64, error) {
	var d eventDoc
	err := s.events.FindOne(ctx, bson.M{"case_id": caseID}, options.FindOne().SetSort(bson.D{{Key: "seq", Value: -1}})).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the last event: %w", err)
	}
	return d.Seq, nil
}

// ListEvents returns the case's events numbered above after, in order, at most limit
// (1000 when limit <= 0).
func (s *Store) ListEvents(ctx context.Context, caseID string, after int64, limit int) ([]store.Event, error) {
	if limit <= 0 {
		limit = 1000
	}
	cur, err := s.events.Find(ctx, bson.M{"case_id": caseID, "seq": bson.M{"$gt": after}},
		options.Find().SetSort(bson.D{{Key: "seq", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	var docs []eventDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	out := make([]store.Event, len(docs))
	for i, d := range docs {
		out[i] = d.event()
	}
	return out, nil
}
