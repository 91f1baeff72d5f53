package mongostore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/lexflow/lexflow/store"
)

// How a case's event log is kept: the insert of an event under the number after the
// case's last stored one (_id "<case>/<seq>") both takes the number and commits the
// event, so a number is stored only once the one before it is, and no number is ever
// left out. A writer that loses the number to another writer finds the last one again
// and retries. The unique index on (case_id, eid) makes appends idempotent: an event
// whose ID is stored is not stored again. Reads go by _id alone, one number after the
// other (FerretDB narrows nothing else: any other filter reads the whole collection);
// since numbers have no gaps, the first one missing is the end of the log.

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
	last, err := s.lastSeq(ctx, caseID)
	if err != nil {
		return store.Event{}, err
	}
	for range appendAttempts {
		d := eventDoc{ID: eventKey(caseID, last+1), CaseID: caseID, Seq: last + 1, EID: e.ID, Type: e.Type,
			TurnID: e.TurnID, At: e.At.UTC(), Body: string(e.Body)}
		_, err := s.events.InsertOne(ctx, d)
		if err == nil {
			s.lastSeen.Store(caseID, d.Seq)
			return d.event(), nil
		}
		if !mongo.IsDuplicateKeyError(err) {
			return store.Event{}, fmt.Errorf("store event %s: %w", e.ID, err)
		}
		there, found, err := s.eventAt(ctx, caseID, last+1)
		switch {
		case err != nil:
			return store.Event{}, err
		case found && there.ID == e.ID:
			return there, nil // a twin of this append stored it under this number
		case found:
			if last, err = s.lastSeq(ctx, caseID); err != nil { // another event took the number
				return store.Event{}, err
			}
		default:
			return s.storedEvent(ctx, caseID, e.ID) // the ID is stored under an earlier number
		}
	}
	return store.Event{}, fmt.Errorf("store event %s: other writers took %d numbers in a row", e.ID, appendAttempts)
}

// eventKey is the _id of a case's event number seq.
func eventKey(caseID string, seq int64) string { return fmt.Sprintf("%s/%020d", caseID, seq) }

// eventAt reads the case's event number seq, if it is stored.
func (s *Store) eventAt(ctx context.Context, caseID string, seq int64) (store.Event, bool, error) {
	d, err := findOne[eventDoc](ctx, s.events, bson.M{"_id": eventKey(caseID, seq)}, fmt.Sprintf("event %d", seq))
	if errors.Is(err, store.ErrNotFound) {
		return store.Event{}, false, nil
	}
	if err != nil {
		return store.Event{}, false, err
	}
	return d.event(), true, nil
}

// storedEvent reads the case's event with that ID: an append retried after an earlier
// attempt stored it. It reads the whole log on FerretDB, but only for such a retry.
func (s *Store) storedEvent(ctx context.Context, caseID, id string) (store.Event, error) {
	d, err := findOne[eventDoc](ctx, s.events, bson.M{"case_id": caseID, "eid": id}, "event "+id)
	return d.event(), err
}

// lastSeq is the number of the case's last stored event, 0 for none: from the last
// this process saw, the numbers after it are probed by _id, doubling the step and then
// halving it, so a log of N events new to this process costs about 2 log N reads.
func (s *Store) lastSeq(ctx context.Context, caseID string) (int64, error) {
	var last int64
	if v, ok := s.lastSeen.Load(caseID); ok {
		last = v.(int64)
	}
	exists := func(seq int64) (bool, error) {
		_, found, err := s.eventAt(ctx, caseID, seq)
		return found, err
	}
	step := int64(1)
	for {
		found, err := exists(last + step)
		if err != nil {
			return 0, err
		}
		if !found {
			break
		}
		last += step
		step *= 2
	}
	for step /= 2; step > 0; step /= 2 {
		found, err := exists(last + step)
		if err != nil {
			return 0, err
		}
		if found {
			last += step
		}
	}
	s.lastSeen.Store(caseID, last)
	return last, nil
}

// LastEventSeq is the number of the case's last stored event, 0 for none.
func (s *Store) LastEventSeq(ctx context.Context, caseID string) (int64, error) {
	return s.lastSeq(ctx, caseID)
}

// ListEvents returns the case's events numbered above after, in order, at most limit
// (1000 when limit <= 0), reading one number after the other up to the first missing.
func (s *Store) ListEvents(ctx context.Context, caseID string, after int64, limit int) ([]store.Event, error) {
	if limit <= 0 {
		limit = 1000
	}
	out := []store.Event{}
	for seq := after + 1; len(out) < limit; seq++ {
		e, found, err := s.eventAt(ctx, caseID, seq)
		if err != nil {
			return nil, err
		}
		if !found {
			break
		}
		out = append(out, e)
	}
	return out, nil
}
