package workflows_test

import (
	"path/filepath"
	"testing"

	sdkworker "go.temporal.io/sdk/worker"

	"github.com/lexflow/lexflow/worker"
)

// TestReplayRecordedHistories replays every recorded workflow history in
// testdata/histories (`make histories` records them) against today's workflow code. A
// change that alters the commands a running case already took (an activity added,
// removed or reordered, a child workflow or timer more or less) without a
// workflow.GetVersion guard fails here with a non-determinism error, before it can
// fail cases in production.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob("testdata/histories/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recorded histories in testdata/histories: run make histories")
	}
	for _, file := range files {
		t.Run(filepath.Base(filepath.Dir(file))+"/"+filepath.Base(file), func(t *testing.T) {
			r := sdkworker.NewWorkflowReplayer()
			worker.RegisterWorkflows(r)
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, file); err != nil {
				t.Fatal(err)
			}
		})
	}
}
