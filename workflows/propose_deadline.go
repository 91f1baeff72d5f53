package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// ProposeDeadline stores a proposed deadline in its case, once per deadline ID, and
// tells the case's owner (deadline.proposed). Nothing runs for the deadline until a
// person confirms it through the API. The assistant's propose_deadline starts it as
// a child of the turn; the court watch as a child of its own workflow.
func ProposeDeadline(ctx workflow.Context, in schemas.ProposeDeadline) (schemas.ProposedDeadline, error) {
	opts := toolOptions(schemas.ToolProposeDeadline)
	opts.Summary = "Store proposed deadline " + in.DeadlineID
	var p schemas.Proposal
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), deadlineActs.ProposeDeadline, in).Get(ctx, &p)
	if err != nil {
		return schemas.ProposedDeadline{}, err
	}
	if p.Notify != nil {
		notify(ctx, *p.Notify, "Tell the case's owner of proposed deadline "+in.DeadlineID)
	}
	return p.Result, nil
}
