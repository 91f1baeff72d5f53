package stack

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
)

// RunCourtWatch triggers the court-watch schedule and waits for the run it starts to
// complete (its continued runs included).
func (s *Stack) RunCourtWatch(t testing.TB) {
	t.Helper()
	courtWatchMu.Lock()
	defer courtWatchMu.Unlock()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	h := s.TC.ScheduleClient().GetHandle(ctx, schemas.CourtWatchScheduleID)
	before, err := h.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range before.Info.RecentActions {
		seen[a.StartWorkflowResult.WorkflowID+"/"+a.StartWorkflowResult.FirstExecutionRunID] = true
	}
	if err := h.Trigger(ctx, client.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	for {
		d, err := h.Describe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range d.Info.RecentActions {
			r := a.StartWorkflowResult
			if seen[r.WorkflowID+"/"+r.FirstExecutionRunID] {
				continue
			}
			var res schemas.CourtWatchResult
			if err := s.TC.GetWorkflow(ctx, r.WorkflowID, "").Get(ctx, &res); err != nil {
				t.Fatalf("court watch %s: %v", r.WorkflowID, err)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("the triggered court watch never started")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// courtWatchMu serializes a package's triggered runs: the schedule skips a trigger
// while a run is running.
var courtWatchMu sync.Mutex
