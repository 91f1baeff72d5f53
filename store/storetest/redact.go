package storetest

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/lexflow/lexflow/store"
)

// testRedactEvent: a redacted event keeps its number, ID, type, turn and time, with
// the new body; the events around it are untouched, and a number the log does not
// hold, or another case's, is ErrNotFound.
func testRedactEvent(t *testing.T, s store.Store) {
	caseID := newID("case")
	stored, err := s.AppendEvents(t.Context(), caseID, event("a", "tool.started"), event("b", "tool.finished"), event("c", "turn.completed"))
	if err != nil {
		t.Fatal(err)
	}
	body := json.RawMessage(`{"summary":"[redacted]"}`)
	if err := s.RedactEvent(t.Context(), caseID, 2, body); err != nil {
		t.Fatalf("RedactEvent = %v", err)
	}
	got := listEvents(t, s, caseID, 0, 0)
	want := stored[1]
	want.Body = body
	if len(got) != 3 || !sameEvent(got[1], want) || !sameEvent(got[0], stored[0]) || !sameEvent(got[2], stored[2]) {
		t.Errorf("after redacting event 2: %+v\nwant %+v", got, []store.Event{stored[0], want, stored[2]})
	}
	for _, c := range []struct {
		caseID string
		seq    int64
	}{{caseID, 4}, {newID("case"), 2}} {
		if err := s.RedactEvent(t.Context(), c.caseID, c.seq, body); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("RedactEvent(%s, %d) = %v, want ErrNotFound", c.caseID, c.seq, err)
		}
	}
}

// sameEvent reports whether an event read back is want.
func sameEvent(got, want store.Event) bool {
	return got.Seq == want.Seq && got.ID == want.ID && got.Type == want.Type && got.TurnID == want.TurnID &&
		got.At.Equal(want.At) && string(got.Body) == string(want.Body)
}

// testRedactRecord: a redacted record keeps everything but its content and, for a
// tool record, the text it showed the model, which read back new, whatever the limit
// of the list; a record with no tool call gets none; a record the case does not hold
// is ErrNotFound.
func testRedactRecord(t *testing.T, s store.Store) {
	caseID := newID("case")
	recs := []store.Record{record(caseID, 1, 0), record(caseID, 1, 1), record(caseID, 1, 2), record(caseID, 2, 0)}
	appendRecords(t, s, recs...)
	for _, i := range []int{1, 2} {
		if err := s.RedactRecord(t.Context(), caseID, recs[i].ID, "[redacted]"); err != nil {
			t.Fatalf("RedactRecord = %v", err)
		}
	}
	recs[1].Content, recs[2].Content = "[redacted]", "[redacted]"
	tool := *recs[1].Tool
	tool.Shown = "[redacted]"
	recs[1].Tool = &tool
	checkRecords(t, "records", listRecords(t, s, caseID, 0, 0), recs)
	checkRecords(t, "the last three records", listRecords(t, s, caseID, 0, 3), recs[1:])
	for _, c := range [][2]string{{caseID, recs[1].ID + "-missing"}, {newID("case"), recs[1].ID}} {
		if err := s.RedactRecord(t.Context(), c[0], c[1], "x"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("RedactRecord(%s, %s) = %v, want ErrNotFound", c[0], c[1], err)
		}
	}
}
