package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// SupportTicket is create_support_ticket: it stores the ticket, once per workflow ID,
// and pauses the case for support.
func SupportTicket(ctx workflow.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
	opts := toolOptions(schemas.ToolCreateSupportTicket)
	opts.Summary = "Store support ticket " + in.TicketID
	var res schemas.TicketResult
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), ticketActs.CreateSupportTicket, in).Get(ctx, &res)
	return res, err
}
