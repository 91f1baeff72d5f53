package workflows_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/worker"
)

// TestReplayRecordedHistories replays recorded workflow histories under
// testdata/histories (`make histories SET=<name>` records a set, in
// testdata/histories/<name>/<scenario>/) against today's workflow code: the
// auto-upgrade workflows' histories of every set, since a running case, quota or
// ticket replays on whatever build is current, and the pinned workflows' histories of
// the newest set only, since a pinned run finishes on the build it started on. A
// change to an auto-upgrade workflow that alters the commands a running one already
// took (an activity added, removed or reordered, a timer more or less) without a
// workflow.GetVersion guard fails here with a non-determinism error, before it can
// fail cases in production.
func TestReplayRecordedHistories(t *testing.T) {
	entries, err := os.ReadDir("testdata/histories")
	if err != nil {
		t.Fatal(err)
	}
	var sets []os.DirEntry
	for _, e := range entries {
		if e.IsDir() {
			sets = append(sets, e)
		}
	}
	if len(sets) == 0 {
		t.Fatal("no recorded histories in testdata/histories: run make histories")
	}
	newest := sets[len(sets)-1].Name() // ReadDir sorts by name; sets are named by date, then .N within a day
	replayed := 0
	for _, set := range sets {
		err := filepath.WalkDir(filepath.Join("testdata/histories", set.Name()), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			wfType, err := workflowType(path)
			if err != nil {
				return err
			}
			if worker.Behavior(wfType) == workflow.VersioningBehaviorPinned && set.Name() != newest {
				return nil
			}
			replayed++
			name, _ := filepath.Rel("testdata/histories", path)
			t.Run(name, func(t *testing.T) {
				r := sdkworker.NewWorkflowReplayer()
				worker.RegisterWorkflows(r)
				if err := r.ReplayWorkflowHistoryFromJSONFile(nil, path); err != nil {
					t.Fatal(err)
				}
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if replayed == 0 {
		t.Fatal("no history replayed")
	}
}

// workflowType is the type of the workflow whose history the file holds, from its
// first event.
func workflowType(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var h struct {
		Events []struct {
			Started *struct {
				WorkflowType struct {
					Name string `json:"name"`
				} `json:"workflowType"`
			} `json:"workflowExecutionStartedEventAttributes"`
		} `json:"events"`
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return "", err
	}
	if len(h.Events) == 0 || h.Events[0].Started == nil {
		return "", fs.ErrInvalid
	}
	return h.Events[0].Started.WorkflowType.Name, nil
}

// TestEveryRecordedWorkflowHasABehavior: a history of a workflow type the worker
// gives no versioning behavior would be replayed as auto-upgrade; the types must be
// named (worker/version.go).
func TestEveryRecordedWorkflowHasABehavior(t *testing.T) {
	known := []workflow.VersioningBehavior{workflow.VersioningBehaviorPinned, workflow.VersioningBehaviorAutoUpgrade}
	err := filepath.WalkDir("testdata/histories", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		wfType, err := workflowType(path)
		if err == nil && !slices.Contains(known, worker.Behavior(wfType)) {
			t.Errorf("%s: workflow type %q has no versioning behavior", path, wfType)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
