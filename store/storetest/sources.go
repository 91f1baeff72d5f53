package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// sourceFailureTests check store.SourceFailures.
var sourceFailureTests = []subtest{
	{"CountsOneToolWithinTheWindow", testSourceFailuresWindow},
	{"ConcurrentFailuresAllCount", testSourceFailuresConcurrent},
}

func recordSourceFailure(t *testing.T, s store.Store, id, tool string, at time.Time) int {
	t.Helper()
	n, err := s.RecordSourceFailure(t.Context(), store.SourceFailure{ID: id, Tool: tool, At: at}, 10*time.Minute)
	if err != nil {
		t.Fatalf("RecordSourceFailure(%s) = %v", id, err)
	}
	return n
}

func testSourceFailuresWindow(t *testing.T, s store.Store) {
	tool, other := newID("tool"), newID("tool")
	now := time.Now().UTC().Truncate(time.Millisecond)
	a, b, c, d := newID("call"), newID("call"), newID("call"), newID("call")
	for _, step := range []struct {
		id, tool string
		at       time.Time
		want     int
		why      string
	}{
		{a, tool, now.Add(-30 * time.Minute), 1, "the first failure"},
		{b, tool, now.Add(-9 * time.Minute), 1, "a is more than ten minutes older"},
		{b, tool, now.Add(-9 * time.Minute), 1, "b recorded again counts once"},
		{c, tool, now, 2, "b and c are within ten minutes"},
		{newID("call"), other, now, 1, "another tool counts apart"},
		{d, tool, now.Add(2 * time.Minute), 2, "b is now more than ten minutes older than d"},
	} {
		if got := recordSourceFailure(t, s, step.id, step.tool, step.at); got != step.want {
			t.Errorf("RecordSourceFailure = %d, want %d: %s", got, step.want, step.why)
		}
	}
}

func testSourceFailuresConcurrent(t *testing.T, s store.Store) {
	tool, now := newID("tool"), time.Now().UTC()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := s.RecordSourceFailure(t.Context(), store.SourceFailure{ID: newID("call"), Tool: tool, At: now}, 10*time.Minute); err != nil {
				t.Errorf("RecordSourceFailure = %v", err)
			}
		})
	}
	wg.Wait()
	if got := recordSourceFailure(t, s, newID("call"), tool, now); got != 9 {
		t.Errorf("after 8 failures recorded at once, the ninth counts %d, want 9", got)
	}
}
