package workflows_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	sdkworker "go.temporal.io/sdk/worker"

	"github.com/lexflow/lexflow/worker"
)

// TestReplayRecordedHistories replays every recorded workflow history under
// testdata/histories (`make histories SET=<name>` records a set, in
// testdata/histories/<name>/<scenario>/) against today's workflow code. A change that
// alters the commands a running case already took (an activity added, removed or
// reordered, a child workflow or timer more or less) without a workflow.GetVersion
// guard fails here with a non-determinism error, before it can fail cases in
// production.
func TestReplayRecordedHistories(t *testing.T) {
	var files []string
	err := filepath.WalkDir("testdata/histories", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recorded histories in testdata/histories: run make histories")
	}
	for _, file := range files {
		name, _ := filepath.Rel("testdata/histories", file)
		t.Run(name, func(t *testing.T) {
			r := sdkworker.NewWorkflowReplayer()
			worker.RegisterWorkflows(r)
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, file); err != nil {
				t.Fatal(err)
			}
		})
	}
}
