package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// SupportCase is a case in support's list.
type SupportCase struct {
	CaseID     string    `json:"case_id"`
	WorkflowID string    `json:"workflow_id"`
	Status     string    `json:"status"`
	Phase      string    `json:"phase"`
	WaitingOn  string    `json:"waiting_on,omitempty"`
	Tier       int64     `json:"tier,omitempty"`
	TenantID   string    `json:"tenant_id,omitempty"`
	Tenant     string    `json:"tenant,omitempty"`
	ProgressAt time.Time `json:"progress_at"`
	// WaitedSeconds is how long the case has been where it is: since its last progress.
	WaitedSeconds int64 `json:"waited_seconds"`
}

// supportStatuses are the lists support can ask for.
var supportStatuses = []string{schemas.StatusPausedSupport, schemas.StatusWaitingUser, schemas.StatusWaitingBudget, schemas.SupportStuck}

// SupportCaseList answers GET /v1/support/cases: the status asked for, the visibility
// query that found the cases, and the cases.
type SupportCaseList struct {
	Status string        `json:"status"`
	Query  string        `json:"query"`
	Cases  []SupportCase `json:"cases"`
}

// TicketList answers GET /v1/support/cases/{id}/tickets.
type TicketList struct {
	CaseID  string         `json:"case_id"`
	Tickets []store.Ticket `json:"tickets"`
}

// ResumeView answers POST /v1/support/cases/{id}/resume: the resumption, and the
// case's status once handled (busy when its retry runs as a turn), or "resuming".
type ResumeView struct {
	CaseID string         `json:"case_id"`
	Resume schemas.Resume `json:"resume"`
	Status string         `json:"status"`
	Busy   bool           `json:"busy,omitempty"`
	// UpdateID names the resume update while the case has not handled it.
	UpdateID string `json:"update_id,omitempty"`
}

// supportCases lists the cases paused for support, waiting for a client's answer,
// waiting on their model-token budget, or stuck: working with no progress for longer
// than the stuck threshold. Staff of an organization see only its cases.
func (h *handlers) supportCases(c echo.Context) error {
	status := c.QueryParam("status")
	if !slices.Contains(supportStatuses, status) {
		return problemf(errInvalidInput, "status must be one of "+strings.Join(supportStatuses, ", "))
	}
	org := identity(c).Org
	now := time.Now()
	query := schemas.SupportQuery(status, org, now, h.StuckAfter)
	ctx := c.Request().Context()
	out := []SupportCase{}
	var token []byte
	for {
		resp, err := h.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, NextPageToken: token})
		if err != nil {
			return fmt.Errorf("%w: list cases: %w", errUnavailable, err)
		}
		for _, e := range resp.Executions {
			sa := e.GetSearchAttributes()
			sc := SupportCase{WorkflowID: e.GetExecution().GetWorkflowId()}
			sc.CaseID = schemas.CaseIDOf(sc.WorkflowID)
			sc.Status, sc.Phase = keyword(sa, schemas.SACaseStatus.GetName()), keyword(sa, schemas.SAPhase.GetName())
			sc.WaitingOn, sc.TenantID = keyword(sa, schemas.SAWaitingOn.GetName()), keyword(sa, schemas.SATenantID.GetName())
			sc.Tenant = keyword(sa, schemas.SATenant.GetName())
			if org != "" {
				mine, err := h.ownsListed(ctx, sa, sc.CaseID, org, "")
				if err != nil {
					return fmt.Errorf("%w: check a listed case's organization: %w", errUnavailable, err)
				}
				if !mine {
					continue
				}
			}
			decodeAttr(sa, schemas.SATier.GetName(), &sc.Tier)
			decodeAttr(sa, schemas.SAProgressAt.GetName(), &sc.ProgressAt)
			if !sc.ProgressAt.IsZero() {
				sc.WaitedSeconds = int64(max(now.Sub(sc.ProgressAt), 0) / time.Second)
			}
			out = append(out, sc)
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	return c.JSON(http.StatusOK, SupportCaseList{Status: status, Query: query, Cases: out})
}

// SupportCaseView answers GET /v1/support/cases/{id}: where the case stands, as the
// case last recorded it (its phase and status, what it waits on and since when, the
// escalation on its ladder, the step it stalled on, its tickets and last resumption),
// and whether it is in the "stuck" queue: working for the agent with no progress for
// LEXFLOW_STUCK_AFTER.
type SupportCaseView struct {
	CaseID string             `json:"case_id"`
	OrgID  string             `json:"org_id,omitempty"`
	State  schemas.CaseStatus `json:"state"`
	Stuck  bool               `json:"stuck"`
	// Escalation is case_details.escalation as kept: each attempt of the ladder with
	// its error, which the case's client does not read.
	Escalation []any `json:"escalation"`
}

// supportCase answers where a case stands, for support staff in its scope, from the
// store (what the Temporal Web UI's query showed them); the read is audited.
func (h *handlers) supportCase(c echo.Context) error {
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	if err := h.audit(c, auditState, cs.OrgID, cs.ID, nil); err != nil {
		return err
	}
	st := statusOf(cs)
	stuck := st.WaitingOn == schemas.WaitingOnAgent && h.now().Sub(st.ProgressAt) > h.StuckAfter // as the "stuck" queue
	attempts, _ := cs.Details["escalation"].([]any)
	if attempts == nil {
		attempts = []any{}
	}
	return c.JSON(http.StatusOK, SupportCaseView{CaseID: cs.ID, OrgID: cs.OrgID, State: st, Stuck: stuck, Escalation: attempts})
}

// supportTickets lists a case's support tickets; the read is audited, since tickets
// carry a snapshot of the case.
func (h *handlers) supportTickets(c echo.Context) error {
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	id := cs.ID
	if err := h.audit(c, auditTickets, cs.OrgID, id, nil); err != nil {
		return err
	}
	tickets, err := h.Store.ListTickets(c.Request().Context(), id)
	if err != nil {
		return fmt.Errorf("%w: read tickets: %w", errUnavailable, err)
	}
	if tickets == nil {
		tickets = []store.Ticket{}
	}
	return c.JSON(http.StatusOK, TicketList{CaseID: id, Tickets: tickets})
}

// ResumeRequest is support's resumption of a case.
type ResumeRequest struct {
	Action string `json:"action"`
	Note   string `json:"note"`
	// Tier is the tier support decided for a case paused on its tiering (a tier
	// review); left out, a retry classifies the case again.
	Tier int `json:"tier,omitempty"`
}

// resumeCase sends the resume update to a case paused for support or waiting for the
// client, recording who resumed it and why, and answers once the case has handled it:
// 200 with the case's status (a retried request then runs as the case's next turn),
// 409 if the case is neither paused nor waiting, or 202 with the update's ID if the
// case could not say in time.
func (h *handlers) resumeCase(c echo.Context) error {
	var req ResumeRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	req.Note = strings.TrimSpace(req.Note)
	switch {
	case !slices.Contains(schemas.ResumeActions, req.Action):
		return problemf(errInvalidInput, "action must be one of "+strings.Join(schemas.ResumeActions, ", "))
	case req.Note == "":
		return problemf(errInvalidInput, "note is required: say why the case is resumed")
	case utf8.RuneCountInString(req.Note) > schemas.MaxNoteChars:
		return problemf(errInvalidInput, fmt.Sprintf("note is at most %d characters", schemas.MaxNoteChars))
	case req.Tier != 0 && (req.Tier < schemas.MinTier || req.Tier > schemas.MaxTier):
		return problemf(errInvalidInput, fmt.Sprintf("tier is %d to %d", schemas.MinTier, schemas.MaxTier))
	}
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	id := cs.ID
	// The case's validator has the last word; the stored status spares the audit log
	// a resumption of a case that is neither paused nor waiting.
	st := statusOf(cs)
	if st.Status != schemas.StatusPausedSupport && st.Status != schemas.StatusWaitingUser {
		return problemf(errConflict, "the case is "+st.Status+"; only paused or waiting cases are resumed")
	}
	r := schemas.Resume{Action: req.Action, Note: req.Note, Tier: req.Tier, By: identity(c).Subject}
	detail := map[string]any{"action": r.Action, "note": r.Note, "status": st.Status}
	if r.Tier != 0 {
		detail["tier"] = r.Tier
	}
	record, err := h.auditID(c, schemas.ActionResume, cs.OrgID, id, detail)
	if err != nil {
		return err
	}
	out, _, err := h.updateCase(c.Request().Context(), updateWait, id, schemas.UpdateResume, record, r, client.WorkflowUpdateStageCompleted)
	if err != nil {
		return err
	}
	r.At = out.At
	if out.Handled {
		return c.JSON(http.StatusOK, ResumeView{CaseID: id, Resume: r, Status: out.Status, Busy: out.Busy})
	}
	return c.JSON(http.StatusAccepted, ResumeView{CaseID: id, Resume: r, Status: "resuming", UpdateID: out.ID})
}

// decodeAttr decodes a search attribute of a listed workflow into v, leaving v alone
// when the workflow has none.
func decodeAttr(sa *commonpb.SearchAttributes, name string, v any) {
	if p, ok := sa.GetIndexedFields()[name]; ok {
		_ = converter.GetDefaultDataConverter().FromPayload(p, v)
	}
}

// keyword is a keyword search attribute of a listed workflow, or "".
func keyword(sa *commonpb.SearchAttributes, name string) string {
	var s string
	decodeAttr(sa, name, &s)
	return s
}
