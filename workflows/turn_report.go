package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// reportOptions govern the records a turn keeps for support (its escalation attempts,
// its sources' failures): store writes retried for two minutes, since the client's
// answer waits for them, and a lost record costs support a detail, not the case its
// data.
var reportOptions = func() workflow.ActivityOptions {
	o := storeOptions
	o.ScheduleToCloseTimeout = 2 * time.Minute
	return o
}()

func (e *activityExecutor) Escalated(a schemas.EscalationAttempt) { e.attempts = append(e.attempts, a) }

func (e *activityExecutor) SourceFailed(tool, reason string) {
	e.sources = append(e.sources, sourceFailure{tool: tool, reason: reason, at: workflow.Now(e.ctx)})
}

// report records what the turn noted for support once it has its answer: its
// escalation attempts in case_details.escalation, and each source failure in the
// store's count, opening the operator's ticket of the day about a source that failed
// schemas.SourceFailureLimit times within schemas.SourceFailureWindow, across cases.
// No case pauses for a source. Its failures are logged, never the turn's.
func (e *activityExecutor) report() {
	log := workflow.GetLogger(e.ctx)
	ctx := workflow.WithActivityOptions(e.ctx, reportOptions)
	if len(e.attempts) > 0 {
		err := workflow.ExecuteActivity(ctx, casesActs.RecordEscalation, schemas.RecordEscalation{CaseID: e.in.CaseID, Attempts: e.attempts}).Get(ctx, nil)
		if err != nil {
			log.Error("Escalation attempts not recorded", "TurnID", e.in.TurnID, "Error", err)
		}
	}
	for i, f := range e.sources {
		var count schemas.SourceFailures
		err := workflow.ExecuteActivity(ctx, ticketActs.RecordSourceFailure, schemas.RecordSourceFailure{
			ID: fmt.Sprintf("%s:source:%d", e.in.TurnID, i+1), Tool: f.tool, Reason: f.reason, At: f.at,
		}).Get(ctx, &count)
		if err != nil {
			log.Error("Source failure not counted", "Tool", f.tool, "Error", err)
			continue
		}
		if count.Failures >= schemas.SourceFailureLimit {
			e.openSourceTicket(f, count.Failures)
		}
	}
}

// openSourceTicket starts the SupportTicket workflow of the operator's ticket about a
// failing source, once a UTC day: its workflow ID is the ticket's, and a start that
// finds it, from this turn or from any other worker's, opens nothing. The ticket
// outlives the turn (it is abandoned, not waited for).
func (e *activityExecutor) openSourceTicket(f sourceFailure, failures int) {
	id := schemas.SourceTicketID(f.tool, f.at)
	desc := fmt.Sprintf("Research source %s failed %d times within %s, across cases; the latest failure, in case %s: %s. "+
		"Cases carry on without it.", f.tool, failures, schemas.SourceFailureWindow, e.in.CaseID, f.reason)
	cctx := workflow.WithChildOptions(e.ctx, workflow.ChildWorkflowOptions{
		WorkflowID: id, StaticSummary: "Support ticket " + id,
		ParentClosePolicy:     enums.PARENT_CLOSE_POLICY_ABANDON,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	})
	err := workflow.ExecuteChildWorkflow(cctx, SupportTicket, schemas.SupportTicketInput{TicketID: id, Source: f.tool,
		Args: schemas.CreateSupportTicketArgs{CaseID: schemas.OperatorCase, IssueDescription: desc, AgentStateSnapshot: map[string]any{
			"tool": f.tool, "failures": failures, "error": f.reason, "case": e.in.CaseID,
		}}}).GetChildWorkflowExecution().Get(e.ctx, nil)
	switch {
	case err == nil:
		workflow.GetLogger(e.ctx).Warn("A research source keeps failing: operator ticket opened", "Tool", f.tool, "TicketID", id)
	case temporal.IsWorkflowExecutionAlreadyStartedError(err):
	default:
		workflow.GetLogger(e.ctx).Error("Operator ticket not opened", "Tool", f.tool, "TicketID", id, "Error", err)
	}
}
