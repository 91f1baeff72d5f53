package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// maxDescriptionChars bounds a new case's description.
const maxDescriptionChars = 20000

// caseIDSpace namespaces the case IDs derived from idempotency keys.
var caseIDSpace = uuid.MustParse("4f1c2b1e-8a0f-4a53-9a43-6c1f0e3d2b77")

// CreateCaseRequest is the body of POST /v1/cases.
type CreateCaseRequest struct {
	Description string `json:"description"`
	// Language is "en", "ro" or "it"; empty means the description's language (see
	// guessLanguage).
	Language string `json:"language"`
}

// CreateCaseResponse answers POST /v1/cases.
type CreateCaseResponse struct {
	CaseID     string `json:"case_id"`
	Phase      string `json:"phase"`
	Status     string `json:"status"`
	WorkflowID string `json:"workflow_id"`
}

// SendMessageRequest is the body of POST /v1/cases/{id}/messages: the message and the
// turn's toggles.
type SendMessageRequest struct {
	Message string `json:"message"`
	Toggles
}

// createCase stores a new case and starts its workflow. With an Idempotency-Key header
// the case ID derives from the caller and the key, so a retried request returns the
// same case instead of opening a second one.
func (h *Handlers) createCase(c echo.Context) error {
	var req CreateCaseRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	req.Description = strings.TrimSpace(req.Description)
	switch {
	case req.Description == "":
		return problemf(errInvalidInput, "description is required")
	case utf8.RuneCountInString(req.Description) > maxDescriptionChars:
		return problemf(errInvalidInput, fmt.Sprintf("description is longer than %d characters", maxDescriptionChars))
	case req.Language == "":
		req.Language = guessLanguage(req.Description)
	case !slices.Contains(schemas.Languages, req.Language):
		return problemf(errInvalidInput, fmt.Sprintf("language must be one of %s", strings.Join(schemas.Languages, ", ")))
	}
	who := identity(c)
	caseID := uuid.NewString()
	if key := c.Request().Header.Get("Idempotency-Key"); key != "" {
		caseID = uuid.NewSHA1(caseIDSpace, []byte(who.Subject+"\x00"+key)).String()
	}
	ctx := c.Request().Context()
	stored, err := h.Store.CreateCase(ctx, store.Case{
		ID: caseID, UserID: who.Subject, OrgID: who.Org, Description: req.Description, Language: req.Language,
		Phase: schemas.PhaseTiering, Status: schemas.StatusOpen, Details: store.NewDetails(req.Description),
	})
	if err != nil {
		return fmt.Errorf("%w: store case: %w", errUnavailable, err)
	}
	workflowID := schemas.CaseWorkflowID(caseID)
	_, err = h.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       workflowID,
		TaskQueue:                h.TaskQueue,
		WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, schemas.CaseWorkflow, schemas.CaseInput{
		CaseID: caseID, UserID: who.Subject, OrgID: who.Org, Language: stored.Language, MaxSteps: h.MaxSteps,
		Description: stored.Description, UserWait: h.UserWait,
	})
	if err != nil {
		return fmt.Errorf("%w: start case workflow: %w", errUnavailable, err)
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/cases/"+caseID)
	return c.JSON(http.StatusCreated, CreateCaseResponse{
		CaseID: caseID, Phase: stored.Phase, Status: stored.Status, WorkflowID: workflowID,
	})
}

// ownCase loads the case in the path, answering not found for other users' cases.
func (h *Handlers) ownCase(c echo.Context) (store.Case, error) {
	id := c.Param("id")
	if _, err := uuid.Parse(id); err != nil {
		return store.Case{}, problemf(store.ErrNotFound, "no case "+id)
	}
	cs, err := h.Store.GetCase(c.Request().Context(), id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && cs.UserID != identity(c).Subject) {
		return store.Case{}, problemf(store.ErrNotFound, "no case "+id)
	}
	if err != nil {
		return store.Case{}, fmt.Errorf("%w: read case: %w", errUnavailable, err)
	}
	return cs, nil
}

// CaseView is a case as GET /v1/cases/{id} shows it: the stored case and, while its
// workflow runs, the workflow's state (tier, what it waits on, the escalation).
type CaseView struct {
	store.Case
	State *schemas.CaseState `json:"state,omitempty"`
}

func (h *Handlers) getCase(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	view := CaseView{Case: cs}
	if st, err := h.caseState(c.Request().Context(), cs.ID); err == nil {
		view.State = &st
	}
	return c.JSON(http.StatusOK, view)
}

// caseState queries a case workflow's state.
func (h *Handlers) caseState(ctx context.Context, caseID string) (schemas.CaseState, error) {
	var st schemas.CaseState
	v, err := h.Temporal.QueryWorkflow(ctx, schemas.CaseWorkflowID(caseID), "", schemas.QueryState)
	if err == nil {
		err = v.Get(&st)
	}
	return st, err
}

// sendMessage runs one chat turn through the case workflow's send-message update and
// answers with the turn's result. An Idempotency-Key header becomes the update ID, so a
// retried request gets the same turn's answer instead of running a second turn.
func (h *Handlers) sendMessage(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	if cs.Status == schemas.StatusClosed {
		return problemf(errCaseClosed, "the case is closed")
	}
	var req SendMessageRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	switch n := utf8.RuneCountInString(req.Message); {
	case strings.TrimSpace(req.Message) == "":
		return problemf(errInvalidInput, "message is empty")
	case n > schemas.MaxMessageChars:
		return problemf(errInvalidInput, fmt.Sprintf("message has %d characters; the limit is %d", n, schemas.MaxMessageChars))
	}
	sel, err := req.Resolve(identity(c).Roles, h.Unavailable)
	if err != nil {
		return problemf(errInvalidInput, err.Error())
	}
	updateID := c.Request().Header.Get("Idempotency-Key")
	if updateID == "" {
		updateID = uuid.NewString()
	}
	ctx := c.Request().Context()
	handle, err := h.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   schemas.CaseWorkflowID(cs.ID),
		UpdateID:     updateID,
		UpdateName:   schemas.UpdateSendMessage,
		Args:         []any{schemas.SendMessageRequest{Message: req.Message, Selection: sel}},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	var res schemas.TurnResult
	if err == nil {
		err = handle.Get(ctx, &res)
	}
	if err != nil {
		return updateError(err)
	}
	return c.JSON(http.StatusOK, res)
}

// updateError maps a failed send-message update to its failure kind.
func updateError(err error) error {
	var notFound *serviceerror.NotFound
	var appErr *temporal.ApplicationError
	switch {
	case errors.As(err, &notFound):
		return problemf(errCaseNotRunning, "the case's workflow has ended or was never started")
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrInvalidMessage:
		return problemf(errInvalidInput, appErr.Message())
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrCaseClosed:
		return problemf(errCaseClosed, appErr.Message())
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrPaymentRequired:
		return problemf(errPaymentRequired, appErr.Message()+"; POST /v1/cases/{id}/payment once paid")
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrCasePaused:
		return problemf(errCasePaused, appErr.Message())
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", errUnavailable, err)
	}
	return fmt.Errorf("%w: %w", errTurnFailed, err)
}

// cancelTurn asks the case's running turn to stop between steps. The turn's own request
// then answers with what it has, marked cancelled.
func (h *Handlers) cancelTurn(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	handle, err := h.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   schemas.CaseWorkflowID(cs.ID),
		UpdateName:   schemas.UpdateCancelTurn,
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	var res schemas.CancelTurnResult
	if err == nil {
		err = handle.Get(ctx, &res)
	}
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) && appErr.Type() == schemas.ErrNoTurn {
		return problemf(errNoTurn, appErr.Message())
	}
	if err != nil {
		return updateError(err)
	}
	return c.JSON(http.StatusAccepted, map[string]string{"turn_id": res.TurnID, "status": "cancel_requested"})
}

func (h *Handlers) listMessages(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	recs, err := h.Store.ListRecords(c.Request().Context(), cs.ID, 0, 0)
	if err != nil {
		return fmt.Errorf("%w: read transcript: %w", errUnavailable, err)
	}
	if recs == nil {
		recs = []store.Record{}
	}
	return c.JSON(http.StatusOK, map[string]any{"case_id": cs.ID, "messages": recs})
}

// bindJSON decodes a JSON object body; trailing data is an error, unknown fields are
// ignored so that newer clients keep working.
func bindJSON(c echo.Context, v any) error {
	dec := json.NewDecoder(c.Request().Body)
	if err := dec.Decode(v); err != nil {
		return problemf(errBadJSON, err.Error())
	}
	if dec.More() {
		return problemf(errBadJSON, "body has data after the JSON object")
	}
	return nil
}
