package workflows

import (
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// ToolExecution runs one tool for an admin (POST /v1/admin/tools/execute) the way a
// turn runs it: the arguments, given or written from the admin's question (writeArgs),
// are validated against the tool's schema and bound to the case, as a model's call
// is, and the tool's activity runs under the tool's policy through the RunTool
// activity. The escalation ladder does not apply: the admin reads the failure.
// Arguments that do not fit fail the run with ErrInvalidArgs; a tool that fails
// after its retries is a result, with status failed.
func ToolExecution(ctx workflow.Context, in schemas.ToolExecution) (schemas.ToolExecutionResult, error) {
	tool, ok := tools.Get(in.Tool)
	if !ok || tool.Activity == "" {
		return schemas.ToolExecutionResult{}, temporal.NewNonRetryableApplicationError(
			"no activity runs tool "+in.Tool+" on its own", schemas.ErrInvalidArgs, nil)
	}
	turn := schemas.ChatTurnInput{CaseID: in.CaseID, UserID: in.UserID, OrgID: in.OrgID, Language: in.Language,
		MaxArgsBytes: schemas.MaxToolArgsBytes}
	args := in.Args
	if in.Query != "" {
		written, err := writeArgs(ctx, tool, in.Query, in.Language, in.Tenant)
		if err != nil {
			return schemas.ToolExecutionResult{}, err
		}
		args = written
	}
	p := prepare(tool, args, turn)
	if reason := p.reason(); reason != "" {
		return schemas.ToolExecutionResult{}, temporal.NewNonRetryableApplicationError(reason, schemas.ErrInvalidArgs, nil)
	}
	res := schemas.ToolExecutionResult{Tool: tool.Name, Args: p.args, Dropped: p.dropped, Status: schemas.ToolOK}
	opts := tool.Policy.Options()
	opts.Summary = "Tool " + tool.Name
	run := schemas.RunToolInput{Tool: tool.Name, Args: mustJSON(p.typed), Raw: true,
		ResultKey: schemas.ToolExecutionResultFolder(in.CaseID, in.ID) + tool.Name + ".json"}
	start := workflow.Now(ctx)
	var out schemas.ToolOutput
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), toolActs.RunTool, run).Get(ctx, &out)
	res.LatencyMS = workflow.Now(ctx).Sub(start).Milliseconds()
	if err != nil {
		res.Status, res.Error = schemas.ToolFailed, toolFailure(tool, err)
		res.Text = tools.Failed(tool.Name, res.Error)
		return res, nil
	}
	res.Text, res.Result, res.ResultRef = out.Text, out.Raw, out.Ref
	if out.Failure != "" {
		res.Status, res.Error = schemas.ToolFailed, out.Failure
	}
	return res, nil
}
