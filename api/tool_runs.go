package api

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/internal/language"
	"github.com/lexflow/lexflow/internal/pii"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/tools"
)

// ToolRun asks POST /v1/admin/tools/execute to run one tool, on a case or on none:
// Lexflow's {tool, args} or Sanctum's {tool_id, query}, where the tool is named by
// the registry's name or Sanctum's ID (db-query, web-search) and its arguments are
// written from the natural-language query. ToolContext is read only to refuse it:
// no model reads this route's answer.
type ToolRun struct {
	Tool        string          `json:"tool,omitempty"`
	ToolID      string          `json:"tool_id,omitempty"`
	Args        json.RawMessage `json:"args,omitempty"`
	Query       string          `json:"query,omitempty"`
	CaseID      string          `json:"case_id,omitempty"`
	ToolContext string          `json:"tool_context,omitempty"`
}

// ToolRunResult answers it: the run's workflow, the tool by name and by Sanctum's ID,
// the question its arguments were written from, the arguments as the tool ran with
// them (validated, defaults filled, bound to the case), those its schema does not know
// and left out, the tool's status and raw result, the text the model would read, and
// how long the call took.
type ToolRunResult struct {
	WorkflowID string          `json:"workflow_id"`
	Tool       string          `json:"tool"`
	ToolID     string          `json:"tool_id"`
	Query      string          `json:"query,omitempty"`
	Args       map[string]any  `json:"args"`
	Dropped    []string        `json:"dropped,omitempty"`
	Status     string          `json:"status"`
	Result     json.RawMessage `json:"result,omitempty"`
	Text       string          `json:"text"`
	Error      string          `json:"error,omitempty"`
	LatencyMS  int64           `json:"latency_ms"`
}

// modelTools are the tools that call a model themselves: their tokens are metered to
// the case a run is on, so they run on one.
var modelTools = []string{schemas.ToolLexSearchEnriched, schemas.ToolConsultReasoner}

// Bounds of reading a raw result the run kept in the blob store: the time (the
// request's own wait may be nearly spent) and the size.
const (
	keptResultWait = 30 * time.Second
	maxKeptResult  = 64 << 20
)

// toolRunMargin is how much longer than its tool's policy allows a run is waited
// for: the time to start the workflow and dispatch its activity.
const toolRunMargin = 15 * time.Second

// executeTool answers POST /v1/admin/tools/execute, Sanctum's admin tool execution: it
// runs the tool through the same registry, validation, binding, policy and activity as
// a turn, as a ToolExecution workflow the Web UI shows, and answers its raw result,
// the text the model would read and its latency. Asked a query instead of args, the
// run has its arguments written from it (workflows.writeArgs: by the tool_args model,
// charged to the case or, on no case, to the admin's tenant, unless the tool needs
// only a query) and validates them as a model's call; the answer shows the query
// beside them. A tool_context is refused (400). Each call is audited first, with its
// arguments (and query) masked, and each admin's calls are rate limited. A tool that acts on a
// case (its arguments bound to a case or a user) needs case_id; tools that run as child
// workflows of a turn (a draft, a ticket) are not run here. A tool that writes (Writes)
// on a case under a legal hold is 409 legal-hold.
func (h *handlers) executeTool(c echo.Context) error {
	var req ToolRun
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	tool, args, err := h.runnableTool(&req)
	if err != nil {
		return err
	}
	if err := h.limitToolRuns(c); err != nil {
		return err
	}
	who := identity(c)
	run := schemas.ToolExecution{ID: uuid.NewString(), Tool: tool.Name, Args: req.Args, Query: req.Query}
	if req.Query != "" {
		run.Args, run.Tenant, run.Language = nil, schemas.TenantKey(who.Org, who.Subject), language.GuessOr(req.Query, h.DefaultLanguage)
	}
	ctx := c.Request().Context()
	parties := pii.Names{}
	if req.CaseID == "" {
		// On no case, a tool bound to an organization (system_stats) acts on the
		// admin's own: the operator's staff have none.
		run.OrgID = who.Org
	}
	if req.CaseID != "" {
		cs, err := h.staffCaseByID(c, req.CaseID)
		if err != nil {
			return err
		}
		if err := h.notErasing(c, cs.ID, "no tool runs on it"); err != nil {
			return err
		}
		if tool.Writes && cs.Hold != nil { // a legal hold freezes the case's content
			return holdProblem(identity(c), cs.Hold)
		}
		run.CaseID, run.UserID, run.OrgID, run.Language = cs.ID, cs.UserID, cs.OrgID, cs.Language
		if err := detailsFit(tool.Name, cs.Details, args); err != nil {
			return err
		}
		ps, err := h.Store.ListParties(ctx, cs.ID)
		if err != nil {
			return fmt.Errorf("%w: read the case's parties: %w", errUnavailable, err)
		}
		parties = partyNames(ps)
	}
	id := schemas.ToolExecutionWorkflowID(run.CaseID, run.ID)
	// A run on no case is the admin's organization's business, for its audit log.
	org := run.OrgID
	if run.CaseID == "" {
		org = who.Org
	}
	entry := map[string]any{"tool": tool.Name, "args": maskArgs(args, parties), "workflow_id": id}
	if req.Query != "" {
		entry["query"] = maskArgs(req.Query, parties)
	}
	if err := h.audit(c, auditToolRun, org, run.CaseID, entry); err != nil {
		return err
	}
	wait := tool.Policy.Longest() + toolRunMargin
	if req.Query != "" {
		wait += schemas.ToolArgsWait
	}
	var res schemas.ToolExecutionResult
	opts := client.StartWorkflowOptions{ID: id, WorkflowExecutionTimeout: wait, StaticSummary: "Admin runs " + tool.Name}
	if err := h.runShort(c, opts, wait, "tool run", schemas.ToolExecutionWorkflow, run, &res); err != nil {
		return err
	}
	if err := h.takeKeptResult(ctx, run, &res); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ToolRunResult{WorkflowID: id, Tool: res.Tool, ToolID: schemas.SanctumToolID(res.Tool), Query: req.Query,
		Args: res.Args, Dropped: res.Dropped, Status: res.Status, Result: res.Result, Text: res.Text, Error: res.Error, LatencyMS: res.LatencyMS})
}

// runnableTool is the tool the request names, if an admin may run it here, and its
// arguments decoded; arguments left out, or to be written from a query, are {}.
func (h *handlers) runnableTool(req *ToolRun) (*tools.Tool, map[string]any, error) {
	req.Query = strings.TrimSpace(req.Query)
	switch {
	case req.ToolContext != "":
		return nil, nil, problemf(errToolContext, "tool_context goes with POST /v1/chat, whose model reads it; a tool run takes none")
	case req.Tool != "" && req.ToolID != "":
		return nil, nil, problemf(errInvalidInput, "name the tool once: tool or tool_id")
	case req.Query != "" && len(req.Args) > 0:
		return nil, nil, problemf(errInvalidInput, "send args or a query to write them from, not both")
	case utf8.RuneCountInString(req.Query) > schemas.MaxQuestionChars:
		return nil, nil, problemf(errInvalidInput, fmt.Sprintf("query is at most %d characters", schemas.MaxQuestionChars))
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage(`{}`)
	}
	named := cmp.Or(req.Tool, req.ToolID)
	var args map[string]any
	tool, ok := tools.Get(schemas.ToolNamed(named))
	switch {
	case named == "":
		return nil, nil, problemf(errInvalidInput, "tool (or tool_id) is required")
	case !ok:
		return nil, nil, problemf(errInvalidInput, "no tool "+named+"; GET /v1/tools lists them")
	case tool.Workflow != "":
		return nil, nil, problemf(errInvalidInput, tool.Name+" runs as a child workflow of a turn, which a case's turn starts; it is not run on its own")
	case tool.Activity == "":
		return nil, nil, problemf(errInvalidInput, tool.Name+" is not available in this deployment")
	case h.Unavailable[tool.Name] != "":
		return nil, nil, problemf(errInvalidInput, tool.Name+" is not available in this deployment: "+h.Unavailable[tool.Name])
	case len(req.Args) > schemas.MaxToolArgsBytes:
		return nil, nil, problemf(errInvalidInput, fmt.Sprintf("args have %d bytes; the limit is %d", len(req.Args), schemas.MaxToolArgsBytes))
	case json.Unmarshal(req.Args, &args) != nil || args == nil:
		return nil, nil, problemf(errInvalidInput, "args must be a JSON object, {} for none")
	case req.CaseID == "" && slices.ContainsFunc(tool.Bound, func(b tools.Binding) bool { return b.From == "case" || b.From == "user" }):
		return nil, nil, problemf(errInvalidInput, tool.Name+" acts on a case: case_id is required")
	case req.CaseID == "" && slices.Contains(modelTools, tool.Name):
		return nil, nil, problemf(errInvalidInput, tool.Name+" calls a model, whose tokens a case's budget pays: case_id is required")
	}
	return tool, args, nil
}

// limitToolRuns refuses an admin's tool run past ToolRunsPerMinute with 429.
func (h *handlers) limitToolRuns(c echo.Context) error {
	if h.ToolRunsPerMinute == 0 {
		return nil
	}
	who, now := identity(c), time.Now()
	r := h.limits.bucket("tool-runs/"+store.OwnerID(who.Org, who.Subject), h.ToolRunsPerMinute, now).ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return tooMany(fmt.Sprintf("your tool runs are past %d a minute", h.ToolRunsPerMinute), time.Duration(math.Ceil(delay.Seconds()))*time.Second)
	}
	return nil
}

// takeKeptResult reads into res a raw result too large to travel in the run's
// answer, which the run kept in the blob store (at most maxKeptResult of it), and
// deletes it, whatever the client does meanwhile: nothing else reads it.
func (h *handlers) takeKeptResult(reqCtx context.Context, run schemas.ToolExecution, res *schemas.ToolExecutionResult) error {
	if res.ResultRef == "" {
		return nil
	}
	folder := schemas.ToolExecutionResultFolder(run.CaseID, run.ID)
	if res.ResultRef != folder+run.Tool+".json" {
		return fmt.Errorf("the tool run kept its result under %q, outside its folder %q", res.ResultRef, folder)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(reqCtx), keptResultWait)
	defer cancel()
	defer func() {
		if _, err := h.Blobs.DeletePrefix(ctx, folder); err != nil {
			h.Log.Warn("A tool run's kept result was not deleted", "folder", folder, "error", err)
		}
	}()
	r, err := h.Blobs.Open(ctx, res.ResultRef)
	if err != nil {
		return fmt.Errorf("%w: read the tool's result: %w", errUnavailable, err)
	}
	defer r.Close()
	raw, err := io.ReadAll(io.LimitReader(r, maxKeptResult+1))
	switch {
	case err != nil:
		return fmt.Errorf("%w: read the tool's result: %w", errUnavailable, err)
	case len(raw) > maxKeptResult:
		return fmt.Errorf("the tool's result has more than %d bytes", maxKeptResult)
	}
	res.Result, res.ResultRef = raw, ""
	return nil
}
