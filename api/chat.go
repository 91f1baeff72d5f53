package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/language"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// ChatRequest is POST /v1/chat's body, Sanctum's /llm/chat: a message, the tools to
// run before the model answers (registry names or Sanctum's IDs), an admin's
// tool_context (Sanctum's decrypted admin context), and the answer's language.
type ChatRequest struct {
	Message     string   `json:"message"`
	Tools       []string `json:"tools,omitempty"`
	ToolContext string   `json:"tool_context,omitempty"`
	Language    string   `json:"language,omitempty"`
}

// chatWait bounds how long POST /v1/chat waits for its answer, and how long the Chat
// workflow may run: at most three tools, each with its arguments written by a model
// and run under its policy, then the answering model call. Their first attempts fit
// in it many times over; a chat whose every step is retried to its last attempt may
// reach it, and is then 503 as any short run that outlives its wait.
const chatWait = 6 * time.Minute

// chatResultWait bounds the deletion of a chat's kept tool results.
const chatResultWait = 30 * time.Second

// chat answers POST /v1/chat: Sanctum's stateless chat, of no case. The tools the
// request names run first, with the message as their question, then one model call
// answers from their texts, as a Chat workflow (chat:<tenant>:<id>, sealed with the
// tenant's key). Only the tools a caller's roles may use that need no case run
// (db-query, legal_sql, for admins); a case tool, a tool that calls a model itself,
// or one the deployment lacks is 422. A tool_context is taken from admins only (400
// tool-context-refused for anyone else), audited without its content, and read by
// the model pseudonymized as the rest of the message; with it, db-query is not run
// again, as Sanctum skips it. The model's tokens are charged to the caller's tenant
// and bounded as POST /v1/query's are (checkQueryAllowance).
func (h *handlers) chat(c echo.Context) error {
	var req ChatRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	who := identity(c)
	in, err := h.chatOf(req, who)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := h.checkQueryAllowance(ctx, who); err != nil {
		return err
	}
	in.ID, in.Tenant = uuid.NewString(), schemas.TenantKey(who.Org, who.Subject)
	if in.ToolContext != "" {
		// The decrypted context is personal data: its size is audited, never its text.
		entry := map[string]any{"tool_context_chars": utf8.RuneCountInString(in.ToolContext), "tools": in.Tools}
		if err := h.audit(c, auditToolContext, who.Org, "", entry); err != nil {
			return err
		}
	}
	defer h.deleteChatResults(ctx, in.ID)
	var out schemas.ChatAnswer
	opts := tenantRun(who, func(tenant, _ string) string { return schemas.ChatWorkflowID(tenant, in.ID) }, chatWait)
	if err := h.runShort(c, opts, chatWait, "chat", schemas.ChatWorkflow, in, &out); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// chatOf checks a chat request from who and gives it its defaults: the language
// guessed from the message, or the deployment's when it tells none.
func (h *handlers) chatOf(req ChatRequest, who auth.Identity) (schemas.Chat, error) {
	in := schemas.Chat{Message: strings.TrimSpace(req.Message), ToolContext: strings.TrimSpace(req.ToolContext), Language: req.Language}
	switch {
	case req.ToolContext != "" && !who.Has(schemas.RoleAdmin):
		return in, problemf(errToolContext, "tool_context is taken from admins only")
	case in.Message == "":
		return in, problemf(errInvalidInput, "message is required")
	case utf8.RuneCountInString(in.Message) > schemas.MaxQuestionChars:
		return in, problemf(errInvalidInput, fmt.Sprintf("message is at most %d characters", schemas.MaxQuestionChars))
	case utf8.RuneCountInString(in.ToolContext) > schemas.MaxToolContextChars:
		return in, problemf(errInvalidInput, fmt.Sprintf("tool_context is at most %d characters", schemas.MaxToolContextChars))
	case in.Language != "" && !slices.Contains(schemas.Languages, in.Language):
		return in, problemf(errInvalidInput, "language must be one of ro, it, en")
	case len(req.Tools) > schemas.MaxChatTools:
		return in, problemf(errInvalidInput, fmt.Sprintf("at most %d tools a message", schemas.MaxChatTools))
	}
	for _, named := range req.Tools {
		tool, err := h.chatTool(named, who)
		if err != nil {
			return in, err
		}
		// With the admin's decrypted context, db-query's encrypted rows are not
		// read again (seed 004).
		if slices.Contains(in.Tools, tool.Name) || in.ToolContext != "" && tool.Name == schemas.ToolLegalSQL {
			continue
		}
		in.Tools = append(in.Tools, tool.Name)
	}
	if in.Language == "" {
		in.Language = language.GuessOr(in.Message, h.DefaultLanguage)
	}
	return in, nil
}

// chatTool is the tool a chat names, if who may run it there: one of who's roles, run
// by an activity of its own, in this deployment, acting on no case or user, and
// calling no model of its own (whose tokens a case's budget pays).
func (h *handlers) chatTool(named string, who auth.Identity) (*tools.Tool, error) {
	tool, ok := tools.Get(schemas.ToolNamed(named))
	switch {
	case !ok || !tool.AllowedFor(who.Roles):
		return nil, problemf(errInvalidInput, "no tool "+named+" you may use; GET /v1/tools lists them")
	case tool.Activity == "" || slices.ContainsFunc(tool.Bound, func(b tools.Binding) bool { return b.From == "case" || b.From == "user" || b.From == "org" }):
		return nil, problemf(errInvalidInput, tool.Name+" acts on a case: a chat has none")
	case slices.Contains(modelTools, tool.Name):
		return nil, problemf(errInvalidInput, tool.Name+" calls a model, whose tokens a case's budget pays: use it in a case")
	case h.Unavailable[tool.Name] != "":
		return nil, problemf(errInvalidInput, tool.Name+" is not available in this deployment: "+h.Unavailable[tool.Name])
	}
	return tool, nil
}

// deleteChatResults deletes the tool results chat id kept in the blob store, whatever
// the client does meanwhile: nothing reads them once the chat has answered.
func (h *handlers) deleteChatResults(reqCtx context.Context, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(reqCtx), chatResultWait)
	defer cancel()
	if _, err := h.Blobs.DeletePrefix(ctx, schemas.ChatResultFolder(id)); err != nil {
		h.Log.Warn("A chat's kept tool results were not deleted", "folder", schemas.ChatResultFolder(id), "error", err)
	}
}
