package worker

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/workflows"
)

// fixtureChange is the change the marker fixture workflow guards.
const fixtureChange = "fixture-change"

// markerFixture takes fixtureChange's marker when asked, then waits for its end signal.
func markerFixture(ctx workflow.Context, mark bool) error {
	if mark {
		workflow.GetVersion(ctx, fixtureChange, workflow.DefaultVersion, 1)
	}
	workflow.GetSignalChannel(ctx, "end").Receive(ctx, nil)
	return nil
}

// TestUnmarked counts, on a Temporal dev server, the runs a fixture change may still
// replay the old branch of: a run started before the change without its marker counts;
// one that took the marker, one started after the change and one that ended do not.
func TestUnmarked(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal dev server")
	}
	ts := testenv.Temporal(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	c, err := client.Dial(client.Options{HostPort: ts.Address})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	queue := "markers-" + uuid.NewString()
	w := sdkworker.New(c, queue, sdkworker.Options{})
	w.RegisterWorkflowWithOptions(markerFixture, workflow.RegisterOptions{Name: "MarkerFixture"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	start := func(id string, mark bool) client.WorkflowRun {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, "MarkerFixture", mark)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	old := start("old", false)
	start("marked", true)
	// The change's build becomes current once both took their first task, marker
	// included, as visibility shows.
	waitCount(t, ctx, c, "WorkflowType = 'MarkerFixture' AND TemporalChangeVersion = 'fixture-change-1'", 1)
	ch := workflows.Change{ID: fixtureChange, Workflows: []string{"MarkerFixture"}, Since: time.Now()}
	start("new", false)
	waitCount(t, ctx, c, "WorkflowType = 'MarkerFixture'", 3)

	if n, err := Unmarked(ctx, c, ch); err != nil || n != 1 {
		t.Fatalf("Unmarked = %d, %v; want 1 (the old run)", n, err)
	}
	if err := c.SignalWorkflow(ctx, old.GetID(), "", "end", nil); err != nil {
		t.Fatal(err)
	}
	if err := old.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	waitCount(t, ctx, c, "WorkflowType = 'MarkerFixture' AND ExecutionStatus = 'Running'", 2)
	if n, err := Unmarked(ctx, c, ch); err != nil || n != 0 {
		t.Fatalf("Unmarked after the old run ended = %d, %v; want 0", n, err)
	}
}

// waitCount polls visibility, which trails the server, until query counts want runs.
func waitCount(t *testing.T, ctx context.Context, c client.Client, query string, want int64) {
	t.Helper()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		resp, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: query})
		if err == nil && resp.GetCount() == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: want %d runs, visibility says %d (%v)", query, want, resp.GetCount(), err)
		case <-tick.C:
		}
	}
}
