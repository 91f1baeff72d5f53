package worker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/workflows"
)

// Unmarked counts the open executions of ch's workflow types that started before
// ch.Since and carry no TemporalChangeVersion '<ID>-1': the runs that may still replay
// the change's old branch. The change's guard can be deleted when it is zero. The count
// is visibility's, which trails the server by a second or so.
func Unmarked(ctx context.Context, c client.Client, ch workflows.Change) (int64, error) {
	types := make([]string, len(ch.Workflows))
	for i, t := range ch.Workflows {
		types[i] = "'" + t + "'"
	}
	before := fmt.Sprintf("WorkflowType IN (%s) AND ExecutionStatus = 'Running' AND StartTime < '%s'",
		strings.Join(types, ", "), ch.Since.UTC().Format(time.RFC3339Nano))
	// A run that never took the marker has no TemporalChangeVersion at all, which a
	// "!=" would not match: count all, then those marked.
	all, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: before})
	if err != nil {
		return 0, fmt.Errorf("count %s: %w", ch.ID, err)
	}
	marked, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{
		Query: before + fmt.Sprintf(" AND TemporalChangeVersion = '%s-1'", ch.ID)})
	if err != nil {
		return 0, fmt.Errorf("count %s: %w", ch.ID, err)
	}
	return all.GetCount() - marked.GetCount(), nil
}
