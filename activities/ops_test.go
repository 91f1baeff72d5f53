package activities

import (
	"context"
	"strings"
	"testing"

	"go.temporal.io/sdk/testsuite"
)

// TestOpIDNamesTheActivityExecution checks that an activity's op is its workflow's
// run and its own activity ID, so a retry carries the same one; outside an activity it
// is empty.
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
}
