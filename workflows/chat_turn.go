package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// ChatTurn runs one chat turn as a child of the Case workflow: it records the user's
// message, runs the tool loop (each model call and each tool call an activity), and
// records the tool calls and the answer.
func ChatTurn(ctx workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
	sctx := workflow.WithActivityOptions(ctx, storeOptions)
	err := workflow.ExecuteActivity(sctx, transcriptActs.RecordUserMessage, schemas.RecordUserMessage{
		CaseID: in.CaseID, UserID: in.UserID, TurnID: in.TurnID, TurnNo: in.TurnNo,
		Message: in.Message, At: workflow.Now(ctx),
	}).Get(ctx, nil)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	res, err := RunTurn(in, activityExecutor{ctx})
	if err != nil {
		return schemas.TurnResult{}, err
	}
	err = workflow.ExecuteActivity(sctx, transcriptActs.RecordTurn, schemas.RecordTurn{
		CaseID: in.CaseID, UserID: in.UserID, TurnNo: in.TurnNo, Result: res, At: workflow.Now(ctx),
	}).Get(ctx, nil)
	return res, err
}

// TurnExecutor runs the steps of a turn. ChatTurn runs them as activities; the benchmark
// runs the same loop in-process to measure what Temporal adds.
type TurnExecutor interface {
	Now() time.Time
	CallModel(req schemas.ModelRequest) (schemas.ModelResponse, error)
	// RunTool runs a tool with arguments bound to the case and returns its JSON result.
	RunTool(name string, args []byte) (json.RawMessage, error)
}

// activityExecutor runs a turn's steps as activities of the workflow.
type activityExecutor struct{ ctx workflow.Context }

func (e activityExecutor) Now() time.Time { return workflow.Now(e.ctx) }

func (e activityExecutor) CallModel(req schemas.ModelRequest) (schemas.ModelResponse, error) {
	var resp schemas.ModelResponse
	ctx := workflow.WithActivityOptions(e.ctx, modelOptions)
	err := workflow.ExecuteActivity(ctx, modelActs.CallModel, req).Get(ctx, &resp)
	return resp, err
}

func (e activityExecutor) RunTool(name string, args []byte) (json.RawMessage, error) {
	t, ok := findTool(name)
	if !ok {
		return nil, fmt.Errorf("unknown tool %q", name)
	}
	in, err := t.decode(args)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError("invalid arguments: "+err.Error(), schemas.ErrInvalidArgs, err)
	}
	var out json.RawMessage
	ctx := workflow.WithActivityOptions(e.ctx, t.options)
	err = workflow.ExecuteActivity(ctx, t.activity, in).Get(ctx, &out)
	return out, err
}

// Caps on what a turn keeps of a tool result: the summary reported in tools_used and
// stored in the transcript (seed 001's 900 characters), what a source quotes, and what
// the model is shown.
const (
	summaryChars     = 900
	sourceChars      = 300
	toolContentChars = 8000
)

// RunTurn is the tool loop of seed 001, made durable by its executor. It makes at most
// in.MaxSteps model calls; every call but the last offers the tools, so the last one
// must answer in text. Each tool call is bound to the turn's case, run, and its result
// (or a "[Tool <name> failed: <reason>]" text) goes back to the model.
func RunTurn(in schemas.ChatTurnInput, exec TurnExecutor) (schemas.TurnResult, error) {
	res := schemas.TurnResult{TurnID: in.TurnID, ToolsUsed: []schemas.ToolUse{}, Sources: []schemas.Source{}}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: in.Message}}
	maxSteps := max(in.MaxSteps, 1)
	for step := 1; step <= maxSteps; step++ {
		req := schemas.ModelRequest{Role: schemas.RoleAssistant, CaseID: in.CaseID, TurnNo: in.TurnNo, Language: in.Language, Messages: msgs}
		if step < maxSteps {
			req.Tools = toolNames()
		}
		resp, err := exec.CallModel(req)
		if err != nil {
			return res, fmt.Errorf("model call %d: %w", step, err)
		}
		res.Steps = step
		if len(resp.ToolCalls) == 0 || step == maxSteps {
			res.Reply = resp.Content
			if res.Reply == "" {
				res.Reply = "I could not reach an answer within this turn; please ask again or rephrase."
			}
			return res, nil
		}
		msgs = append(msgs, schemas.ChatMessage{Role: schemas.MsgAssistant, Content: resp.Content, ToolCalls: resp.ToolCalls})
		for _, call := range resp.ToolCalls {
			use, content := runTool(in.CaseID, call, exec)
			res.ToolsUsed = append(res.ToolsUsed, use)
			if use.Status == schemas.ToolOK {
				res.Sources = append(res.Sources, schemas.Source{Tool: use.Tool, Summary: clip(content, sourceChars)})
			}
			msgs = append(msgs, schemas.ChatMessage{Role: schemas.MsgTool, ToolCallID: call.ID, Content: clip(content, toolContentChars)})
		}
	}
	return res, nil
}

// runTool binds a call to the case, runs it, and reports it: the ToolUse for the turn's
// answer and the text the model is shown.
func runTool(caseID string, call schemas.ToolCall, exec TurnExecutor) (schemas.ToolUse, string) {
	use := schemas.ToolUse{Tool: call.Name, Args: json.RawMessage(`{}`), Status: schemas.ToolFailed}
	fail := func(reason string) (schemas.ToolUse, string) {
		use.Error = reason
		text := fmt.Sprintf("[Tool %s failed: %s]", call.Name, reason)
		use.Summary = text
		return use, text
	}
	args, err := bindCase(call.Arguments, caseID)
	if errors.Is(err, errForeignCase) {
		// Answer as the case tools answer an unknown case, revealing nothing about others.
		use.Error = schemas.CaseNotFound
		out, _ := json.Marshal(schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound})
		use.Summary = string(out)
		return use, string(out)
	}
	if err != nil {
		return fail(err.Error())
	}
	use.Args = args
	start := exec.Now()
	out, err := exec.RunTool(call.Name, args)
	use.LatencyMS = exec.Now().Sub(start).Milliseconds()
	if err != nil {
		return fail(failureReason(err))
	}
	var status schemas.StatusResult
	if json.Unmarshal(out, &status) == nil && status.Status == schemas.ResultError {
		use.Error = status.ErrorMessage
	} else {
		use.Status = schemas.ToolOK
	}
	use.Summary = clip(string(out), summaryChars)
	return use, string(out)
}

// errForeignCase means a tool call named a case other than the turn's.
var errForeignCase = errors.New("case_id names another case")

// bindCase parses a call's arguments and sets case_id to the turn's case. A call that
// names another case is refused: the model acts only on the case it serves.
func bindCase(raw, caseID string) (json.RawMessage, error) {
	args := map[string]any{}
	if raw != "" {
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			return nil, fmt.Errorf("arguments are not a JSON object: %v", err)
		}
	}
	if id, ok := args["case_id"]; ok && id != caseID {
		return nil, errForeignCase
	}
	args["case_id"] = caseID
	return json.Marshal(args)
}

// failureReason is the short reason a tool failed, for the model and the user.
func failureReason(err error) string {
	var appErr *temporal.ApplicationError
	var timeoutErr *temporal.TimeoutError
	switch {
	case errors.As(err, &timeoutErr):
		return "timed out"
	case errors.As(err, &appErr):
		return appErr.Message()
	default:
		return err.Error()
	}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
