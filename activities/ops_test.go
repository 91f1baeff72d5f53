package activities

import (
	"context"
	"strings"
	"testing"

	"go.temporal.io/sdk/testsuite"
)

// TestOpIDNamesTheActivityExecution checks that an activity's op is its workflow's
// run and its own activity ID, so a retry carries the same one; a local activity's ID
// is told apart from the activities'; under WithRun it is the run WithRun names, and
// outside an activity and WithRun it is empty.
func TestOpIDNamesTheActivityExecution(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	op := func(ctx context.Context) (string, error) { return opID(ctx), nil }
	env.RegisterActivity(op)
	v, err := env.ExecuteActivity(op)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := v.Get(&got); err != nil {
		t.Fatal(err)
	}
	if parts := strings.Split(got, "/"); len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		t.Errorf("opID in an activity = %q; want workflow ID / run ID / activity ID", got)
	}
	if op := opID(context.Background()); op != "" {
		t.Errorf("opID outside an activity = %q", op)
	}
	lv, err := env.ExecuteLocalActivity(op)
	if err != nil {
		t.Fatal(err)
	}
	var local string
	if err := lv.Get(&local); err != nil {
		t.Fatal(err)
	}
	if parts := strings.Split(local, "/"); len(parts) != 3 || !strings.HasPrefix(parts[2], "local-") {
		t.Errorf("opID in a local activity = %q; want its ID apart from the activities' (local-N)", local)
	}
	if op := opID(WithRun(context.Background(), "case:c1:turn:2", "r1", "7")); op != "case:c1:turn:2/r1/7" {
		t.Errorf("opID under WithRun = %q; want case:c1:turn:2/r1/7", op)
	}
}
