package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// ChatTurn runs one chat turn as a child of the Case workflow: it records the user's
// message, runs the tool loop (each model call and each tool call an activity), checks
// the answer's legal citations against the corpus, marking those it cannot verify, and
// records the tool calls and the answer. A cancel signal, or the turn's deadline,
// stops the step it is waiting for (an activity being retried is cancelled) and ends
// the turn with what it has. A turn that fails publishes turn.failed before it fails.
// Every turn is counted in the worker's metrics (recordTurn).
func ChatTurn(ctx workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
	start := workflow.Now(ctx)
	res, err := chatTurn(ctx, in)
	recordTurn(ctx, res, err, workflow.Now(ctx).Sub(start))
	if err == nil || temporal.IsCanceledError(err) || ctx.Err() != nil {
		return res, err
	}
	fctx := workflow.WithActivityOptions(ctx, failedTurnOptions)
	ferr := workflow.ExecuteActivity(fctx, transcriptActs.RecordTurnFailed, schemas.RecordTurnFailed{
		TurnID: in.TurnID, Reason: failureReason(err),
	}).Get(ctx, nil)
	if ferr != nil {
		workflow.GetLogger(ctx).Error("turn.failed not published", "TurnID", in.TurnID, "Error", ferr)
	}
	return res, err
}

// chatTurn is ChatTurn's turn.
func chatTurn(ctx workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
	workflow.GetLogger(ctx).Info(tools.EnabledLine(in.Selection.Tools), "TurnID", in.TurnID)
	err := turnStep(ctx, storeOptions, transcriptActs.RecordUserMessage, schemas.RecordUserMessage{
		CaseID: in.CaseID, UserID: in.UserID, TurnID: in.TurnID, TurnNo: in.TurnNo,
		Message: in.Message, At: workflow.Now(ctx), RequestID: in.RequestID,
	}, nil)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	timeout := in.Timeout
	if timeout <= 0 {
		timeout = schemas.DefaultTurnTimeout
	}
	tctx, stopTimer := workflow.WithCancel(ctx)
	defer stopTimer()
	exec := &activityExecutor{ctx: ctx, in: in, cancel: workflow.GetSignalChannel(ctx, schemas.SignalCancelTurn), timeout: timeout,
		deadline: workflow.NewTimerWithOptions(tctx, timeout, workflow.TimerOptions{Summary: "Turn deadline"})}
	res, err := RunTurn(in, exec)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	exec.report()
	var checked schemas.CheckedReply
	err = turnStep(ctx, citationOptions, researchActs.CheckCitations, schemas.CheckCitations{Reply: res.Reply, Language: in.Language}, &checked)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	res.Reply, res.Citations = checked.Reply, checked.Citations
	shown := make([]string, len(res.ToolsUsed))
	for i, u := range res.ToolsUsed {
		shown[i] = u.Shown
	}
	err = turnStep(ctx, storeOptions, transcriptActs.RecordTurn, schemas.RecordTurn{
		CaseID: in.CaseID, UserID: in.UserID, TurnNo: in.TurnNo, Result: res, Shown: shown, At: workflow.Now(ctx),
	}, nil)
	return res, err
}

// localStepBudget bounds one of the turn's own steps run as a local activity, its
// retries included.
const localStepBudget = time.Minute

// turnStep runs one of the turn's own steps, which are neither a model call nor a
// tool: recording the user's message, checking the reply's citations, recording the
// turn, and decodes its result into out. Each is first a local activity, run by the
// worker within the workflow task that asks for it (two fewer workflow tasks and
// three fewer dispatches a turn), with opts' timeouts and retry policy for at most
// localStepBudget; one that fails in that time with an error opts would retry then
// runs as an activity under opts, whose retries the server schedules, so that a store
// down for hours does not grow the turn's history with a local retry every few
// seconds.
func turnStep(ctx workflow.Context, opts workflow.ActivityOptions, activity, arg, out any) error {
	lo := localOptions(opts)
	lo.ScheduleToCloseTimeout = localStepBudget
	err := workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, lo), activity, arg).Get(ctx, out)
	if err == nil || ctx.Err() != nil || temporal.IsCanceledError(err) || !retried(err, opts) {
		return err
	}
	workflow.GetLogger(ctx).Warn("A local step failed: running it as an activity", "Error", err)
	return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), activity, arg).Get(ctx, out)
}

// retried reports whether opts' retry policy retries err: all but application errors
// marked non-retryable or of a type the policy names.
func retried(err error, opts workflow.ActivityOptions) bool {
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) {
		return true
	}
	return !appErr.NonRetryable() && !slices.Contains(opts.RetryPolicy.NonRetryableErrorTypes, appErr.Type())
}

// TurnExecutor runs the steps of a turn. ChatTurn runs them as activities; the benchmark
// runs the same loop in-process to measure what Temporal adds.
type TurnExecutor interface {
	Now() time.Time
	// Stopped says why the turn must stop: StopCancelled, StopDeadline, or "" to go on.
	// The loop asks it before each step.
	Stopped() string
	// Timeout is the turn's deadline, which the timed-out reply names.
	Timeout() time.Duration
	CallModel(req schemas.ModelRequest) (schemas.ModelResponse, error)
	// RunTool runs a tool with its decoded arguments and returns the text the model
	// reads of its result.
	RunTool(tool *tools.Tool, args any) (schemas.ToolOutput, error)
	// Consult asks the reasoner, the escalation ladder's first rung.
	Consult(args schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error)
	// OpenTicket opens a support ticket, the ladder's last rung.
	OpenTicket(in schemas.SupportTicketInput) (schemas.TicketResult, error)
	// Escalated notes one rung of the escalation ladder, with the technical detail
	// the client's sentence leaves out, for the case's case_details.escalation.
	Escalated(a schemas.EscalationAttempt)
	// SourceFailed notes that a degrade-class tool failed after its retries, to be
	// counted for its source.
	SourceFailed(tool, reason string)
}

// Why a turn stops early.
const (
	StopCancelled = "cancelled"
	StopDeadline  = "deadline"
)

// errStopped is a step abandoned because the turn was cancelled or reached its
// deadline; the loop ends the turn instead of treating it as a failure.
var errStopped = errors.New("the turn stopped")

// activityExecutor runs a turn's steps as activities and child workflows of the turn.
// It waits for each step, the cancel signal and the deadline at once, and cancels the
// step when either of the others comes first.
type activityExecutor struct {
	ctx       workflow.Context
	in        schemas.ChatTurnInput
	cancel    workflow.ReceiveChannel
	cancelled bool
	deadline  workflow.Future
	timeout   time.Duration
	expired   bool
	// calls counts the tools run through the RunTool activity, naming their results'
	// blob keys and ops.
	calls int
	// lost counts the steps run again because their worker was lost.
	lost int
	// attempts and sources are what the turn noted for support (Escalated,
	// SourceFailed); report records them when the turn ends.
	attempts []schemas.EscalationAttempt
	sources  []sourceFailure
}

// sourceFailure is a degrade-class tool's failure, noted when it happened.
type sourceFailure struct {
	tool, reason string
	at           time.Time
}

func (e *activityExecutor) Now() time.Time { return workflow.Now(e.ctx) }

func (e *activityExecutor) Timeout() time.Duration { return e.timeout }

func (e *activityExecutor) Stopped() string {
	for e.cancel.ReceiveAsync(nil) {
		e.cancelled = true
	}
	if e.deadline.IsReady() {
		e.expired = true
	}
	switch {
	case e.cancelled:
		return StopCancelled
	case e.expired:
		return StopDeadline
	}
	return ""
}

// await runs a step; a rerunnable one is run again while it is lost with its worker
// (rerun). Only steps that write nothing, or whose writes a run again applies once,
// are rerunnable: model calls, and tools through RunTool (RunToolInput.Op) whose
// policy allows retries.
func (e *activityExecutor) await(rerunnable bool, start func(ctx workflow.Context) workflow.Future, out any) error {
	for {
		err := e.awaitOnce(start, out)
		if !rerunnable || !e.rerun(err) {
			return err
		}
	}
}

// maxLostSteps bounds how many times, over a turn, steps lost with their worker are run
// again: a step that takes its worker down each time (say, out of memory) takes down
// at most (maxLostSteps+1) × its attempts.
const maxLostSteps = 3

// rerun reports whether a step that failed with err is to run again: an activity whose
// last attempt's worker stopped heartbeating (it was killed, or cut off from the
// server), which says nothing of the model or the tool, so the step gets its retry
// policy's attempts anew, at most maxLostSteps times a turn and within its deadline.
func (e *activityExecutor) rerun(err error) bool {
	ae, ok := err.(*temporal.ActivityError)
	if !ok || e.lost >= maxLostSteps {
		return false
	}
	te, ok := ae.Unwrap().(*temporal.TimeoutError)
	if !ok || te.TimeoutType() != enums.TIMEOUT_TYPE_HEARTBEAT {
		return false
	}
	e.lost++
	workflow.GetLogger(e.ctx).Warn("A step's worker was lost: running the step again", "TurnID", e.in.TurnID, "Lost", e.lost, "Error", err)
	return true
}

// awaitOnce starts a step with a context it can cancel and waits for its result into
// out, the cancel signal or the deadline, whichever comes first; on either of the
// others it cancels the step and returns errStopped.
func (e *activityExecutor) awaitOnce(start func(ctx workflow.Context) workflow.Future, out any) error {
	if e.Stopped() != "" {
		return errStopped
	}
	ctx, cancel := workflow.WithCancel(e.ctx)
	f := start(ctx)
	var err error
	done := false
	sel := workflow.NewSelector(e.ctx)
	sel.AddFuture(f, func(f workflow.Future) { err, done = f.Get(e.ctx, out), true })
	sel.AddReceive(e.cancel, func(c workflow.ReceiveChannel, _ bool) { c.Receive(e.ctx, nil); e.cancelled = true })
	sel.AddFuture(e.deadline, func(workflow.Future) { e.expired = true })
	for !done && !e.cancelled && !e.expired {
		sel.Select(e.ctx)
	}
	if done {
		return err
	}
	cancel()
	return errStopped
}

func (e *activityExecutor) CallModel(req schemas.ModelRequest) (schemas.ModelResponse, error) {
	var resp schemas.ModelResponse
	opts := modelOptions
	opts.Summary = "Model call (" + string(req.Role) + ")"
	err := e.await(true, func(ctx workflow.Context) workflow.Future {
		return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), modelActs.CallModel, req)
	}, &resp)
	return resp, err
}

func (e *activityExecutor) RunTool(tool *tools.Tool, args any) (schemas.ToolOutput, error) {
	var out json.RawMessage
	if tool.Workflow != "" {
		id, input := childTools[tool.Workflow](args, e.in)
		opts := workflow.ChildWorkflowOptions{WorkflowID: id, StaticSummary: "Tool " + tool.Name}
		err := e.await(false, func(ctx workflow.Context) workflow.Future {
			return workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, opts), tool.Workflow, input)
		}, &out)
		return Format(tool, out), err
	}
	opts := tool.Policy.Options()
	opts.Summary = "Tool " + tool.Name
	opts.HeartbeatTimeout = modelOptions.HeartbeatTimeout // RunTool heartbeats
	e.calls++
	info := workflow.GetInfo(e.ctx)
	in := schemas.RunToolInput{Tool: tool.Name, Args: mustJSON(args), ResultKey: schemas.ToolResultKey(e.in.CaseID, e.in.TurnNo, e.calls, tool.Name),
		Op: fmt.Sprintf("%s/%s/tool-%d", info.WorkflowExecution.ID, info.WorkflowExecution.RunID, e.calls)}
	var res schemas.ToolOutput
	err := e.await(tool.Policy.MaxAttempts != 1, func(ctx workflow.Context) workflow.Future {
		return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), toolActs.RunTool, in)
	}, &res)
	return res, err
}

// Format is a tool's raw result as the model reads it, for results formatted outside
// the RunTool activity: child workflows' small ones, shaped to their tools' budgets
// at the default context size (the workflow does not read the worker's setting;
// these results are far below their budgets at any size).
func Format(tool *tools.Tool, raw json.RawMessage) schemas.ToolOutput {
	text, failure := tool.Show(raw, 0)
	return schemas.ToolOutput{Text: text, Failure: failure}
}

func (e *activityExecutor) Consult(args schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
	var res schemas.ConsultReasonerResult
	opts := toolOptions(schemas.ToolConsultReasoner)
	opts.Summary = "Escalation: consult the reasoner"
	err := e.await(true, func(ctx workflow.Context) workflow.Future {
		return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), modelActs.ConsultReasoner, args)
	}, &res)
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
