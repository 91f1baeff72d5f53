package workflows

import (
	"testing"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// TestEveryActivityOptionIsBounded checks that no activity is retried without end: each
// option set caps its attempts or its total time, and never retries invalid arguments.
func TestEveryActivityOptionIsBounded(t *testing.T) {
	opts := map[string]workflow.ActivityOptions{"model": modelOptions, "store": storeOptions, "citation": citationOptions, "failed turn": failedTurnOptions,
		"report": reportOptions, "query model": queryModelOptions, "tool arguments": toolArgsModelOptions, "chat model": chatModelOptions}
	for _, tool := range tools.All() {
		opts["tool "+tool.Name] = tool.Policy.Options()
	}
	for name, o := range opts {
		if o.RetryPolicy == nil {
			t.Errorf("%s: no retry policy, so Temporal's default retries without end", name)
			continue
		}
		if o.RetryPolicy.MaximumAttempts <= 0 && o.ScheduleToCloseTimeout <= 0 {
			t.Errorf("%s: retried without an attempt cap or a deadline", name)
		}
		found := false
		for _, typ := range o.RetryPolicy.NonRetryableErrorTypes {
			found = found || typ == schemas.ErrInvalidArgs
		}
		if !found {
			t.Errorf("%s: retries invalid arguments (%s)", name, schemas.ErrInvalidArgs)
		}
	}
}
