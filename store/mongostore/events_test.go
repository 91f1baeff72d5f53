package mongostore_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// TestEventsFromTwoProcesses appends to one case's log through two stores on the same
// database, as two worker processes do, so that writers race for the same numbers (a
// process's own writers of a case take turns): some events are appended by a writer
// of each store at once (an activity and its retry). The log holds every event once,
// numbered 1 to N without a gap.
func TestEventsFromTwoProcesses(t *testing.T) {
	db := fmt.Sprintf("test_%d", time.Now().UnixNano())
	stores := []store.Store{openDB(t, db), openDB(t, db)}
	const writers, each = 4, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			s := stores[w%2]
			for i := range each {
				ev := []store.Event{{ID: fmt.Sprintf("w%d-%02d", w, i), Type: "model.delta", At: time.Now()}}
				if i%4 == 0 {
					ev = append(ev, store.Event{ID: fmt.Sprintf("twin-%02d", i), Type: "tool.finished", At: time.Now()})
				}
				if _, err := s.AppendEvents(t.Context(), "c1", ev...); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := stores[0].ListEvents(t.Context(), "c1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := writers*each + each/4; len(got) != want {
		t.Errorf("the log holds %d events, want %d", len(got), want)
	}
	ids := map[string]bool{}
	for i, e := range got {
		if e.Seq != int64(i+1) || ids[e.ID] {
			t.Fatalf("event %d: number %d, %s seen before: %v", i+1, e.Seq, e.ID, ids[e.ID])
		}
		ids[e.ID] = true
	}
}
