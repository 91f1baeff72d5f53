package storetest

import (
	"slices"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/store"
)

// promptVersionTests check store.PromptVersions. The version is one per store, so these
// compare it before and after rather than with fixed numbers.
var promptVersionTests = []subtest{
	{"BumpIncrementsByOne", testBumpPromptsVersion},
	{"ConcurrentBumpsAllCount", testConcurrentBumps},
}

func testBumpPromptsVersion(t *testing.T, s store.Store) {
	before, err := s.PromptsVersion(t.Context())
	if err != nil || before < 0 {
		t.Fatalf("PromptsVersion = %d, %v", before, err)
	}
	bumped, err := s.BumpPromptsVersion(t.Context())
	if err != nil || bumped != before+1 {
		t.Fatalf("BumpPromptsVersion = %d, %v; want %d", bumped, err, before+1)
	}
	if got, err := s.PromptsVersion(t.Context()); err != nil || got != bumped {
		t.Errorf("PromptsVersion after a bump = %d, %v; want %d", got, err, bumped)
	}
}

func testConcurrentBumps(t *testing.T, s store.Store) {
	const n = 8
	before, err := s.PromptsVersion(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			v, err := s.BumpPromptsVersion(t.Context())
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	wg.Wait()
	slices.Sort(got)
	for i, v := range got {
		if v != before+int64(i)+1 {
			t.Fatalf("%d concurrent bumps from %d returned %v; want each version once", n, before, got)
		}
	}
}
