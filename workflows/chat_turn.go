package workflows

import (
	"encoding/json"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// ChatTurn runs one chat turn as a child of the Case workflow: it records the user's
// message, runs the tool loop (each model call and each tool call an activity), checks
// the answer's legal citations against the corpus, marking those it cannot verify, and
// records the tool calls and the answer. A cancel signal stops it between steps.
func ChatTurn(ctx workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
	workflow.GetLogger(ctx).Info(tools.EnabledLine(in.Selection.Tools), "TurnID", in.TurnID)
	sctx := workflow.WithActivityOptions(ctx, storeOptions)
	err := workflow.ExecuteActivity(sctx, transcriptActs.RecordUserMessage, schemas.RecordUserMessage{
		CaseID: in.CaseID, UserID: in.UserID, TurnID: in.TurnID, TurnNo: in.TurnNo,
		Message: in.Message, At: workflow.Now(ctx),
	}).Get(ctx, nil)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	res, err := RunTurn(in, &activityExecutor{ctx: ctx, in: in, cancel: workflow.GetSignalChannel(ctx, schemas.SignalCancelTurn)})
	if err != nil {
		return schemas.TurnResult{}, err
	}
	var checked schemas.CheckedReply
	cctx := workflow.WithActivityOptions(ctx, citationOptions)
	err = workflow.ExecuteActivity(cctx, researchActs.CheckCitations, schemas.CheckCitations{Reply: res.Reply, Language: in.Language}).Get(ctx, &checked)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	res.Reply, res.Citations = checked.Reply, checked.Citations
	err = workflow.ExecuteActivity(sctx, transcriptActs.RecordTurn, schemas.RecordTurn{
		CaseID: in.CaseID, UserID: in.UserID, TurnNo: in.TurnNo, Result: res, At: workflow.Now(ctx),
	}).Get(ctx, nil)
	return res, err
}

// TurnExecutor runs the steps of a turn. ChatTurn runs them as activities; the benchmark
// runs the same loop in-process to measure what Temporal adds.
type TurnExecutor interface {
	Now() time.Time
	// Cancelled reports whether the turn has been asked to stop.
	Cancelled() bool
	CallModel(req schemas.ModelRequest) (schemas.ModelResponse, error)
	// RunTool runs a tool with its decoded arguments and returns its JSON result.
	RunTool(tool *tools.Tool, args any) (json.RawMessage, error)
	// Consult asks the reasoner, the escalation ladder's first rung.
	Consult(args schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error)
	// OpenTicket opens a support ticket, the ladder's last rung.
	OpenTicket(in schemas.SupportTicketInput) (schemas.TicketResult, error)
}

// activityExecutor runs a turn's steps as activities and child workflows of the turn.
type activityExecutor struct {
	ctx       workflow.Context
	in        schemas.ChatTurnInput
	cancel    workflow.ReceiveChannel
	cancelled bool
}

func (e *activityExecutor) Now() time.Time { return workflow.Now(e.ctx) }

func (e *activityExecutor) Cancelled() bool {
	for e.cancel.ReceiveAsync(nil) {
		e.cancelled = true
	}
	return e.cancelled
}

func (e *activityExecutor) CallModel(req schemas.ModelRequest) (schemas.ModelResponse, error) {
	var resp schemas.ModelResponse
	opts := modelOptions
	opts.Summary = "Model call (" + string(req.Role) + ")"
	ctx := workflow.WithActivityOptions(e.ctx, opts)
	err := workflow.ExecuteActivity(ctx, modelActs.CallModel, req).Get(ctx, &resp)
	return resp, err
}

func (e *activityExecutor) RunTool(tool *tools.Tool, args any) (json.RawMessage, error) {
	var out json.RawMessage
	if tool.Workflow != "" {
		id, input := childTools[tool.Workflow](args, e.in)
		ctx := workflow.WithChildOptions(e.ctx, workflow.ChildWorkflowOptions{WorkflowID: id, StaticSummary: "Tool " + tool.Name})
		err := workflow.ExecuteChildWorkflow(ctx, tool.Workflow, input).Get(ctx, &out)
		return out, err
	}
	opts := tool.Policy.Options()
	opts.Summary = "Tool " + tool.Name
	ctx := workflow.WithActivityOptions(e.ctx, opts)
	err := workflow.ExecuteActivity(ctx, tool.Activity, args).Get(ctx, &out)
	return out, err
}

func (e *activityExecutor) Consult(args schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
	var res schemas.ConsultReasonerResult
	opts := toolOptions(schemas.ToolConsultReasoner)
	opts.Summary = "Escalation: consult the reasoner"
	ctx := workflow.WithActivityOptions(e.ctx, opts)
	err := workflow.ExecuteActivity(ctx, modelActs.ConsultReasoner, args).Get(ctx, &res)
	return res, err
}

func (e *activityExecutor) OpenTicket(in schemas.SupportTicketInput) (schemas.TicketResult, error) {
	return openTicket(e.ctx, in)
}

// openTicket runs the SupportTicket workflow as a child; its ID is the ticket's, so a
// ticket is opened once.
func openTicket(ctx workflow.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
	var res schemas.TicketResult
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: in.TicketID, StaticSummary: "Support ticket " + in.TicketID})
	err := workflow.ExecuteChildWorkflow(cctx, SupportTicket, in).Get(ctx, &res)
	return res, err
}
