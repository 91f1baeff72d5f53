package worker

import (
	"context"
	"reflect"
	"testing"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/tools"
)

// TestToolsRunOnRegisteredActivities checks every tool's registry entry against the
// activities the worker registers: the activity it names exists, and takes the tool's
// argument struct. A tool that runs as a child workflow names a registered workflow.
func TestToolsRunOnRegisteredActivities(t *testing.T) {
	ctxType := reflect.TypeFor[context.Context]()
	methods := map[string]reflect.Method{}
	for _, a := range Activities(Deps{}) {
		typ := reflect.TypeOf(a)
		for i := range typ.NumMethod() {
			m := typ.Method(i)
			if m.Type.NumIn() >= 2 && m.Type.In(1) == ctxType {
				if _, dup := methods[m.Name]; dup {
					t.Errorf("two activities are named %s", m.Name)
				}
				methods[m.Name] = m
			}
		}
	}
	for _, tool := range tools.All() {
		args, err := tool.Decode(map[string]any{})
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		switch {
		case tool.Activity != "":
			m, ok := methods[tool.Activity]
			if !ok {
				t.Errorf("%s runs on activity %s, which no registered struct has", tool.Name, tool.Activity)
				continue
			}
			if m.Type.NumIn() != 3 || m.Type.In(2) != reflect.TypeOf(args) {
				t.Errorf("%s: activity %s takes %v, the tool's arguments are %T", tool.Name, tool.Activity, m.Type, args)
			}
		case tool.Workflow != "":
			if workflowsByName[tool.Workflow] == nil {
				t.Errorf("%s runs as workflow %s, which is not registered", tool.Name, tool.Workflow)
			}
		default:
			t.Errorf("%s names neither an activity nor a workflow", tool.Name)
		}
	}
}

// TestEveryWorkflowHasAVersioningBehavior: a versioned worker refuses to register a
// workflow without one, and each must be chosen (see Version).
func TestEveryWorkflowHasAVersioningBehavior(t *testing.T) {
	for name := range workflowsByName {
		if behaviors[name] == workflow.VersioningBehaviorUnspecified {
			t.Errorf("workflow %s has no versioning behavior", name)
		}
	}
	for name := range behaviors {
		if workflowsByName[name] == nil {
			t.Errorf("a versioning behavior for %s, which is no workflow", name)
		}
	}
}
