package storetest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// eventTests check store.Events.
var eventTests = []subtest{
	{"AppendNumbersInOrder", testAppendEventsNumbers},
	{"AppendIsIdempotent", testAppendEventsIdempotent},
	{"ConcurrentWritersLeaveNoGapAndNoDuplicate", testEventsConcurrentWriters},
	{"RedactReplacesTheBodyAlone", testRedactEvent},
}

func event(id, typ string) store.Event {
	return store.Event{ID: id, Type: typ, TurnID: "turn-1", At: time.Now().UTC().Truncate(time.Millisecond),
		Body: json.RawMessage(fmt.Sprintf(`{"id":%q}`, id))}
}

func listEvents(t *testing.T, s store.Store, caseID string, after int64, limit int) []store.Event {
	t.Helper()
	got, err := s.ListEvents(t.Context(), caseID, after, limit)
	if err != nil {
		t.Fatalf("ListEvents(%d, %d) = %v", after, limit, err)
	}
	return got
}

func testAppendEventsNumbers(t *testing.T, s store.Store) {
	caseID := newID("case")
	first, err := s.AppendEvents(t.Context(), caseID, event("a", "turn.started"), event("b", "model.delta"), event("c", "turn.completed"))
	if err != nil || len(first) != 3 || first[0].Seq != 1 || first[2].Seq != 3 {
		t.Fatalf("AppendEvents = %+v, %v; want numbers 1 to 3", first, err)
	}
	if _, err := s.AppendEvents(t.Context(), caseID, event("d", "notice"), event("e", "status")); err != nil {
		t.Fatal(err)
	}
	all := listEvents(t, s, caseID, 0, 0)
	var ids []string
	for i, e := range all {
		if e.Seq != int64(i+1) || e.CaseID != caseID {
			t.Errorf("event %d = %+v", i, e)
		}
		ids = append(ids, e.ID)
	}
	if !slices.Equal(ids, []string{"a", "b", "c", "d", "e"}) {
		t.Errorf("events = %v, want a to e in order", ids)
	}
	want := first[1]
	if got := all[1]; got.Type != want.Type || got.TurnID != want.TurnID || !sameTime(got.At, want.At) || string(got.Body) != `{"id":"b"}` {
		t.Errorf("stored event = %+v, want %+v", got, want)
	}
	if page := listEvents(t, s, caseID, 3, 1); len(page) != 1 || page[0].ID != "d" {
		t.Errorf("ListEvents(after 3, limit 1) = %+v, want d", page)
	}
	if rest := listEvents(t, s, caseID, 5, 10); len(rest) != 0 {
		t.Errorf("ListEvents past the end = %+v", rest)
	}
	if none := listEvents(t, s, newID("case"), 0, 10); len(none) != 0 {
		t.Errorf("ListEvents of a case without events = %+v", none)
	}
	if last, err := s.LastEventSeq(t.Context(), caseID); err != nil || last != 5 {
		t.Errorf("LastEventSeq = %d, %v; want 5", last, err)
	}
	if last, err := s.LastEventSeq(t.Context(), newID("case")); err != nil || last != 0 {
		t.Errorf("LastEventSeq of a case without events = %d, %v; want 0", last, err)
	}
}

func testAppendEventsIdempotent(t *testing.T, s store.Store) {
	caseID := newID("case")
	if _, err := s.AppendEvents(t.Context(), caseID, event("a", "tool.started"), event("b", "tool.finished")); err != nil {
		t.Fatal(err)
	}
	again, err := s.AppendEvents(t.Context(), caseID, event("b", "tool.finished"), event("c", "model.step"))
	if err != nil || len(again) != 2 || again[0].Seq != 2 || again[1].Seq != 3 {
		t.Fatalf("AppendEvents again = %+v, %v; want b kept at 2 and c at 3", again, err)
	}
	if all := listEvents(t, s, caseID, 0, 0); len(all) != 3 {
		t.Errorf("events = %+v, want a, b and c once each", all)
	}
}

// testEventsConcurrentWriters has writers append at once, each some events of its own
// and some that another writer also appends (a retried activity's twin), while a
// reader follows the log: the log numbers every event once, 1 to N without a gap, the
// reader sees exactly that sequence, and each writer's events keep its order.
func testEventsConcurrentWriters(t *testing.T, s store.Store) {
	caseID := newID("case")
	const writers, each = 6, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				batch := []store.Event{event(fmt.Sprintf("w%d-%02d", w, i), "model.delta")}
				if i%5 == 0 {
					batch = append(batch, event(fmt.Sprintf("shared-%02d", i), "tool.finished"))
				}
				if _, err := s.AppendEvents(t.Context(), caseID, batch...); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	total := writers*each + each/5
	seen := []store.Event{}
	deadline := time.Now().Add(time.Minute)
	for len(seen) < total && time.Now().Before(deadline) {
		var after int64
		if n := len(seen); n > 0 {
			after = seen[n-1].Seq
		}
		seen = append(seen, listEvents(t, s, caseID, after, 7)...)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("AppendEvents = %v", err)
	}
	stored := listEvents(t, s, caseID, 0, 0)
	for name, events := range map[string][]store.Event{"the log": stored, "the reader": seen} {
		if len(events) != total {
			t.Errorf("%s has %d events, want %d", name, len(events), total)
		}
		ids := map[string]bool{}
		last := map[byte]string{}
		for i, e := range events {
			if e.Seq != int64(i+1) {
				t.Fatalf("%s: event %d has number %d", name, i+1, e.Seq)
			}
			if ids[e.ID] {
				t.Errorf("%s holds %s twice", name, e.ID)
			}
			ids[e.ID] = true
			if e.ID[0] == 'w' {
				if prev := last[e.ID[1]]; prev > e.ID {
					t.Errorf("%s: %s after %s", name, e.ID, prev)
				}
				last[e.ID[1]] = e.ID
			}
		}
	}
}
