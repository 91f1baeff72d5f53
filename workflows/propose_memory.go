package workflows

import (
	enums "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

// memoryActs are the memory proposal's activities, by their methods' names.
var memoryActs *activities.MemoryProposals

// ProposeMemory asks the model, once a case is closed, for facts about its client
// worth remembering in their other cases, and stores them as proposals, which the
// client approves or rejects one by one (GET /v1/me/memory/facts). Its history holds
// the facts as the model wrote them, pseudonymized; the store holds them in clear,
// sealed with the client's key. A model that fails proposes nothing.
//
// It is a workflow of its own, pinned, rather than steps of the Case: nothing of the
// case waits for it, and the long-lived, auto-upgrading Case only starts it (behind
// the memory-proposals marker), so its own steps change without markers.
func ProposeMemory(ctx workflow.Context, in schemas.ProposeMemory) (schemas.ProposeMemoryResult, error) {
	opts := modelOptions
	opts.Summary = "Ask the model for facts to remember about the client"
	var proposed schemas.ProposedFacts
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), memoryActs.AskMemoryFacts, in).Get(ctx, &proposed)
	if err != nil {
		workflow.GetLogger(ctx).Warn("No memory facts proposed", "CaseID", in.CaseID, "Error", err)
		return schemas.ProposeMemoryResult{}, nil
	}
	if len(proposed.Facts) == 0 {
		return schemas.ProposeMemoryResult{}, nil
	}
	sopts := storeOptions
	sopts.Summary = "Store the proposed memory facts"
	var res schemas.ProposeMemoryResult
	err = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, sopts), memoryActs.StoreMemoryFacts,
		schemas.StoreProposedFacts{ProposeMemory: in, Facts: proposed.Facts}).Get(ctx, &res)
	return res, err
}

// proposeMemory starts the closed case's ProposeMemory workflow and lets it run on
// after the case has ended (abandoned, not waited for); a start that finds it started
// already, by an earlier run of this step, starts nothing. A start that fails is
// logged: the case closes all the same, with nothing proposed.
func (w *caseWorkflow) proposeMemory(ctx workflow.Context) {
	id := schemas.MemoryWorkflowID(w.state.CaseID)
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID: id, StaticSummary: "Propose memory facts from case " + w.state.CaseID,
		ParentClosePolicy:     enums.PARENT_CLOSE_POLICY_ABANDON,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	})
	err := workflow.ExecuteChildWorkflow(cctx, ProposeMemory, schemas.ProposeMemory{CaseID: w.state.CaseID, OrgID: w.in.OrgID,
		UserID: w.in.UserID, Language: w.in.Language}).GetChildWorkflowExecution().Get(ctx, nil)
	if err != nil && !temporal.IsWorkflowExecutionAlreadyStartedError(err) {
		workflow.GetLogger(ctx).Error("Memory proposal not started", "CaseID", w.state.CaseID, "Error", err)
	}
}

// memoryProposals is the change that has a closing case start its ProposeMemory
// workflow (issue 42).
const memoryProposals = "memory-proposals"
