package store

import (
	"context"
	"encoding/json"
	"time"
)

// Event is one entry of a case's event log: what happened (Type), in which turn, when,
// with a small JSON body. Seq numbers a case's events from 1 without gaps.
type Event struct {
	CaseID string `json:"case_id"`
	Seq    int64  `json:"seq"`
	// ID names the event for its writer: appending an event whose ID a case's log
	// holds already stores nothing (an activity retried after it wrote).
	ID     string          `json:"id"`
	Type   string          `json:"type"`
	TurnID string          `json:"turn_id,omitempty"`
	At     time.Time       `json:"at"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// Events keeps each case's event log.
type Events interface {
	// AppendEvents stores events at the end of a case's log, in their order, each
	// under the next number, and returns them numbered; an event whose ID the log
	// holds is not stored again and comes back with its number. Concurrent writers
	// leave no number out, and a number becomes visible only after the one before it:
	// a reader that has seen N never later finds an N-1 it did not see.
	AppendEvents(ctx context.Context, caseID string, events ...Event) ([]Event, error)
	// ListEvents returns a case's events numbered above after, in order, at most limit
	// of them (1000 when limit <= 0).
	ListEvents(ctx context.Context, caseID string, after int64, limit int) ([]Event, error)
	// LastEventSeq is the number of a case's last stored event, 0 for none.
	LastEventSeq(ctx context.Context, caseID string) (int64, error)
	// RedactEvent replaces the body of a case's event numbered seq, which keeps its
	// number, ID, type, turn and time: what it held must go (a deleted document's
	// text). ErrNotFound for no such event.
	RedactEvent(ctx context.Context, caseID string, seq int64, body json.RawMessage) error
}
