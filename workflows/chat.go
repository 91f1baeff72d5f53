package workflows

import (
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// chatModelOptions govern a chat's answering model call: 2 × 75 s + 1 s at most.
var chatModelOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 75 * time.Second,
	HeartbeatTimeout:    10 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: 2,
		NonRetryableErrorTypes: []string{schemas.ErrModelRejected, schemas.ErrInvalidArgs}},
	Summary: "Model call (chat)",
}

// Chat answers POST /v1/chat, Sanctum's stateless /llm/chat: it runs the named tools
// first, one after the other, each with the message as its question (writeArgs) and
// its arguments validated as a model's call, then makes the one model call, which
// reads the message, the tools' texts and an admin's tool_context, pseudonymized as
// every model call is, and charges the tenant's model-token budget. A tool that fails
// or whose arguments do not fit is reported in tools_used and its failure is what the
// model reads of it; a used-up budget fails the chat.
func Chat(ctx workflow.Context, in schemas.Chat) (schemas.ChatAnswer, error) {
	out := schemas.ChatAnswer{ToolsUsed: []schemas.ToolUse{}}
	var sections []string
	for _, name := range in.Tools {
		tool, ok := tools.Get(name)
		if !ok || tool.Activity == "" {
			return out, temporal.NewNonRetryableApplicationError("no activity runs tool "+name+" on its own", schemas.ErrInvalidArgs, nil)
		}
		use, text, err := runChatTool(ctx, tool, in)
		if err != nil {
			return out, err
		}
		out.ToolsUsed = append(out.ToolsUsed, use)
		sections = append(sections, "["+tool.Name+"]\n"+text)
	}
	if in.ToolContext != "" {
		sections = append(sections, "[tool_context]\n"+in.ToolContext)
	}
	req := schemas.ModelRequest{Role: schemas.ModelChat, Language: in.Language, Tenant: in.Tenant,
		Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: chatMessage(in.Message, sections)}}}
	var resp schemas.ModelResponse
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, chatModelOptions), modelActs.CallModel, req).Get(ctx, &resp); err != nil {
		return out, err
	}
	out.Message, out.Model, out.Provider, out.Usage = strings.TrimSpace(resp.Content), resp.Model, resp.Provider, resp.Usage
	out.ToolsUsed = schemas.BoundedToolsUsed(out.ToolsUsed) // a model's arguments past the limit were never run
	return out, nil
}

// runChatTool runs one named tool for a chat and gives its report and the text the
// model reads of it. Only a used-up budget, while its arguments are written, is an
// error: any other failure is the tool's, reported.
func runChatTool(ctx workflow.Context, tool *tools.Tool, in schemas.Chat) (schemas.ToolUse, string, error) {
	use := schemas.ToolUse{Tool: tool.Name, Args: mustJSON(map[string]any{}), Status: schemas.ToolInvalid}
	raw, err := writeArgs(ctx, tool, in.Message, in.Language, in.Tenant)
	if _, ok := schemas.BudgetExhaustedOf(err); ok {
		return use, "", err
	}
	if err != nil {
		use.Error = failureReason(err)
		return use, tools.Failed(tool.Name, use.Error), nil
	}
	use.Args = raw
	p := prepare(tool, raw, schemas.ChatTurnInput{Language: in.Language, MaxArgsBytes: schemas.MaxToolArgsBytes})
	if reason := p.reason(); reason != "" {
		use.Error = reason
		return use, tools.Failed(tool.Name, reason), nil
	}
	use.Args, use.Dropped, use.Status = mustJSON(p.args), p.dropped, schemas.ToolOK
	opts := tool.Policy.Options()
	opts.Summary = "Tool " + tool.Name
	start := workflow.Now(ctx)
	var got schemas.ToolOutput
	err = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), toolActs.RunTool,
		schemas.RunToolInput{Tool: tool.Name, Args: mustJSON(p.typed), ResultKey: schemas.ChatResultFolder(in.ID) + tool.Name + ".json"}).Get(ctx, &got)
	use.LatencyMS = workflow.Now(ctx).Sub(start).Milliseconds()
	switch {
	case err != nil:
		use.Status, use.Error = schemas.ToolFailed, failureReason(err)
		return use, tools.Failed(tool.Name, use.Error), nil
	case got.Failure != "":
		use.Status, use.Error = schemas.ToolFailed, got.Failure
	}
	use.Summary = tools.Clip(got.Text, maxChatSummaryChars)
	return use, got.Text, nil
}

// maxChatSummaryChars caps a chat tool's summary in tools_used, as a turn's (seed
// 001's 900 characters).
const maxChatSummaryChars = 900

// chatMessage is what the chat model reads: the message, then each tool's text and
// an admin's context under its name in brackets.
func chatMessage(message string, sections []string) string {
	var b strings.Builder
	b.WriteString("Message: " + message + "\n")
	if len(sections) > 0 {
		b.WriteString("\nTool context:\n" + strings.Join(sections, "\n\n") + "\n")
	}
	return b.String()
}
