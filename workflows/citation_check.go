package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// CitationCheck checks the citations of any text, for POST /v1/citations/check: one
// activity on a worker, where the corpus is, as a workflow that the Web UI shows.
func CitationCheck(ctx workflow.Context, in schemas.CitationCheck) (schemas.CitationReport, error) {
	var out schemas.CitationReport
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, citationOptions), researchActs.CheckText, in).Get(ctx, &out)
	return out, err
}
