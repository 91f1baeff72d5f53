package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/blob"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// PaymentRequest confirms a case's payment.
type PaymentRequest struct {
	Reference string `json:"reference"`
}

// confirmPayment sends the payment-confirmed signal to a case awaiting payment and
// answers once the case has handled it: 200 with the payment and the case's phase, or
// 202 if the case is still busy with a turn. It is idempotent: confirming the recorded
// reference again answers 200 with it; another reference is a conflict, and so is a
// case with no payment due.
func (h *Handlers) confirmPayment(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	var req PaymentRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	req.Reference = strings.TrimSpace(req.Reference)
	if req.Reference == "" || len(req.Reference) > 200 {
		return problemf(errInvalidInput, "reference is required (the payment provider's reference, at most 200 characters)")
	}
	ctx := c.Request().Context()
	st, err := h.caseState(ctx, cs.ID)
	if err != nil {
		return problemf(errCaseNotRunning, "the case's workflow is not running")
	}
	switch {
	case st.Payment != nil && st.Payment.Reference == req.Reference:
		return c.JSON(http.StatusOK, map[string]any{"case_id": cs.ID, "payment": st.Payment, "phase": st.Phase})
	case st.Payment != nil:
		return problemf(errConflict, "the case is paid already, with reference "+st.Payment.Reference)
	case st.Phase != schemas.PhaseAwaitingPayment:
		return problemf(errConflict, "no payment is due: the case is "+st.Phase)
	}
	p := schemas.PaymentConfirmed{Reference: req.Reference, By: identity(c).Subject, At: time.Now().UTC()}
	if err := h.Temporal.SignalWorkflow(ctx, schemas.CaseWorkflowID(cs.ID), "", schemas.SignalPaymentConfirmed, p); err != nil {
		return fmt.Errorf("%w: signal payment: %w", errUnavailable, err)
	}
	if st, ok := h.settle(ctx, cs.ID, p.At); ok && st.Payment != nil {
		return c.JSON(http.StatusOK, map[string]any{"case_id": cs.ID, "payment": st.Payment, "phase": st.Phase})
	}
	return c.JSON(http.StatusAccepted, map[string]any{"case_id": cs.ID, "payment": p, "status": "confirming"})
}

// settle waits until the case has handled the signal stamped at (see the Case
// workflow's settle update) and returns its state; ok is false if it could not tell.
func (h *Handlers) settle(ctx context.Context, caseID string, at time.Time) (schemas.CaseState, bool) {
	var st schemas.CaseState
	handle, err := h.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   schemas.CaseWorkflowID(caseID),
		UpdateName:   schemas.UpdateSettle,
		Args:         []any{at},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = handle.Get(ctx, &st)
	}
	if err != nil {
		h.Log.Warn("Settle failed", "case", caseID, "error", err)
		return st, false
	}
	return st, slices.Contains(st.Settled, at.UnixNano())
}

// CloseRequest closes a case.
type CloseRequest struct {
	Note string `json:"note"`
}

// closeCase sends the close-case signal: the client is done with the case. The case
// workflow records it and completes; closing a closed case changes nothing.
func (h *Handlers) closeCase(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	var req CloseRequest // the body, and its note, may be left out
	if c.Request().ContentLength != 0 {
		if err := bindJSON(c, &req); err != nil {
			return err
		}
	}
	if utf8.RuneCountInString(req.Note) > 2000 {
		return problemf(errInvalidInput, "note is at most 2000 characters")
	}
	if cs.Status == schemas.StatusClosed {
		return c.JSON(http.StatusOK, map[string]any{"case_id": cs.ID, "status": cs.Status})
	}
	ctx := c.Request().Context()
	cl := schemas.CloseCase{Note: strings.TrimSpace(req.Note), By: identity(c).Subject, At: time.Now().UTC()}
	if err := h.Temporal.SignalWorkflow(ctx, schemas.CaseWorkflowID(cs.ID), "", schemas.SignalCloseCase, cl); err != nil {
		var notFound *serviceerror.NotFound
		if errors.As(err, &notFound) {
			return problemf(errCaseNotRunning, "the case's workflow has ended or was never started")
		}
		return fmt.Errorf("%w: signal close: %w", errUnavailable, err)
	}
	st, _ := h.settle(ctx, cs.ID, cl.At)
	if st.Status != schemas.StatusClosed {
		// The workflow may have completed before the settle update reached it.
		if stored, err := h.Store.GetCase(ctx, cs.ID); err == nil {
			st.Status = stored.Status
		}
	}
	if st.Status == schemas.StatusClosed {
		return c.JSON(http.StatusOK, map[string]any{"case_id": cs.ID, "status": st.Status})
	}
	return c.JSON(http.StatusAccepted, map[string]any{"case_id": cs.ID, "status": "closing"})
}

// listDrafts lists a case's draft revisions.
func (h *Handlers) listDrafts(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	drafts := activities.RecordedDrafts(cs.Details)
	for i := range drafts {
		drafts[i].Path = fmt.Sprintf("/v1/cases/%s/drafts/%s/%d", cs.ID, drafts[i].DraftName, drafts[i].Revision)
	}
	return c.JSON(http.StatusOK, map[string]any{"case_id": cs.ID, "drafts": drafts})
}

// downloadDraft serves one revision's PDF.
func (h *Handlers) downloadDraft(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	rev, err := strconv.Atoi(c.Param("revision"))
	if err != nil || rev < 1 {
		return problemf(errInvalidInput, "revision must be a positive integer")
	}
	name := c.Param("name")
	ctx := c.Request().Context()
	drafts := activities.RecordedDrafts(cs.Details)
	i := slices.IndexFunc(drafts, func(d schemas.RenderedDraft) bool { return d.DraftName == name && d.Revision == rev })
	if i < 0 {
		return problemf(store.ErrNotFound, fmt.Sprintf("no revision %d of draft %s", rev, name))
	}
	r, err := h.Blobs.Open(ctx, drafts[i].Path)
	if errors.Is(err, blob.ErrNotExist) {
		return problemf(store.ErrNotFound, "the draft's PDF is missing from the blob store")
	}
	if err != nil {
		return fmt.Errorf("%w: open draft: %w", errUnavailable, err)
	}
	defer r.Close()
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s_rev%d.pdf"`, name, rev))
	return c.Stream(http.StatusOK, "application/pdf", r)
}

// SupportCase is a case in support's list.
type SupportCase struct {
	CaseID     string    `json:"case_id"`
	WorkflowID string    `json:"workflow_id"`
	Status     string    `json:"status"`
	Phase      string    `json:"phase"`
	WaitingOn  string    `json:"waiting_on,omitempty"`
	Tier       int64     `json:"tier,omitempty"`
	TenantID   string    `json:"tenant_id,omitempty"`
	ProgressAt time.Time `json:"progress_at"`
}

// supportStatuses are the lists support can ask for.
var supportStatuses = []string{schemas.StatusPausedSupport, schemas.StatusWaitingUser, "stuck"}

// supportQuery is the visibility query of a support list: the same one the Web UI's
// search box takes.
func supportQuery(status string, now time.Time, stuckAfter time.Duration) string {
	q := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running' AND ", schemas.CaseWorkflow)
	if status == "stuck" {
		return q + fmt.Sprintf("WaitingOn = '%s' AND ProgressAt < '%s'", schemas.WaitingOnAgent, now.Add(-stuckAfter).UTC().Format(time.RFC3339))
	}
	return q + fmt.Sprintf("CaseStatus = '%s'", status)
}

// supportCases lists the cases paused for support, waiting for a client's answer, or
// stuck: working with no progress for longer than the stuck threshold.
func (h *Handlers) supportCases(c echo.Context) error {
	status := c.QueryParam("status")
	if !slices.Contains(supportStatuses, status) {
		return problemf(errInvalidInput, "status must be one of "+strings.Join(supportStatuses, ", "))
	}
	query := supportQuery(status, time.Now(), h.StuckAfter)
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
			sc.CaseID = strings.TrimPrefix(sc.WorkflowID, "case:")
			sc.Status, sc.Phase, sc.WaitingOn = keyword(sa, "CaseStatus"), keyword(sa, "Phase"), keyword(sa, "WaitingOn")
			sc.TenantID = keyword(sa, "TenantID")
			decodeAttr(sa, "Tier", &sc.Tier)
			decodeAttr(sa, "ProgressAt", &sc.ProgressAt)
			out = append(out, sc)
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"status": status, "query": query, "cases": out})
}

// supportTickets lists a case's support tickets.
func (h *Handlers) supportTickets(c echo.Context) error {
	id := c.Param("id")
	tickets, err := h.Store.ListTickets(c.Request().Context(), id)
	if err != nil {
		return fmt.Errorf("%w: read tickets: %w", errUnavailable, err)
	}
	if tickets == nil {
		tickets = []store.Ticket{}
	}
	return c.JSON(http.StatusOK, map[string]any{"case_id": id, "tickets": tickets})
}

// ResumeRequest is support's resumption of a case.
type ResumeRequest struct {
	Action string `json:"action"`
	Note   string `json:"note"`
}

// resumeCase sends the resume signal to a case paused for support or waiting for the
// client, recording who resumed it and why, and answers once the case has handled it:
// 200 with the case's status (a retried request then runs as the case's next turn), or
// 202 if the case could not say in time.
func (h *Handlers) resumeCase(c echo.Context) error {
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
	}
	id := c.Param("id")
	ctx := c.Request().Context()
	st, err := h.caseState(ctx, id)
	if err != nil {
		return problemf(store.ErrNotFound, "no running case "+id)
	}
	if st.Status != schemas.StatusPausedSupport && st.Status != schemas.StatusWaitingUser {
		return problemf(errConflict, "the case is "+st.Status+"; only paused or waiting cases are resumed")
	}
	r := schemas.Resume{Action: req.Action, Note: req.Note, By: identity(c).Subject, At: time.Now().UTC()}
	if err := h.Temporal.SignalWorkflow(ctx, schemas.CaseWorkflowID(id), "", schemas.SignalResume, r); err != nil {
		return fmt.Errorf("%w: signal resume: %w", errUnavailable, err)
	}
	if st, ok := h.settle(ctx, id, r.At); ok {
		return c.JSON(http.StatusOK, map[string]any{"case_id": id, "resume": r, "status": st.Status, "busy": st.Busy})
	}
	return c.JSON(http.StatusAccepted, map[string]any{"case_id": id, "resume": r, "status": "resuming"})
}

// SubscriptionRequest sets a subscription's plan and credits.
type SubscriptionRequest struct {
	Plan    string         `json:"plan"`
	Credits map[string]int `json:"credits"`
}

// putSubscription creates or replaces the subscription "user:<id>" or "org:<id>".
func (h *Handlers) putSubscription(c echo.Context) error {
	id := c.Param("id")
	if kind, owner, ok := strings.Cut(id, ":"); !ok || (kind != "user" && kind != "org") || owner == "" {
		return problemf(errInvalidInput, `the subscription ID is "user:<user id>" or "org:<organization id>"`)
	}
	var req SubscriptionRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	for tier, n := range req.Credits {
		if t, err := strconv.Atoi(tier); err != nil || t < schemas.MinTier || t > schemas.MaxTier || n < 0 {
			return problemf(errInvalidInput, `credits map tiers "1", "2" and "3" to cases left (0 or more)`)
		}
	}
	sub, err := h.Store.PutSubscription(c.Request().Context(), store.Subscription{ID: id, Plan: req.Plan, Credits: req.Credits})
	if err != nil {
		return fmt.Errorf("%w: store subscription: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, sub)
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
