package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/language"
	"github.com/lexflow/lexflow/internal/reidentify"
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
	// language.Guess).
	Language string `json:"language"`
}

// CreateCaseResponse answers POST /v1/cases.
type CreateCaseResponse struct {
	CaseID     string `json:"case_id"`
	Phase      string `json:"phase"`
	Status     string `json:"status"`
	WorkflowID string `json:"workflow_id"`
}

// createCase stores a new case and starts its workflow. With an Idempotency-Key header
// the case ID derives from the caller and the key, so a retried request returns the
// same case instead of opening a second one.
func (h *handlers) createCase(c echo.Context) error {
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
		req.Language = language.GuessOr(req.Description, h.DefaultLanguage)
	case !slices.Contains(schemas.Languages, req.Language):
		return problemf(errInvalidInput, fmt.Sprintf("language must be one of %s", strings.Join(schemas.Languages, ", ")))
	}
	who := identity(c)
	caseID := uuid.NewString()
	key, err := idempotencyKey(c)
	if err != nil {
		return err
	}
	if key != "" {
		caseID = uuid.NewSHA1(caseIDSpace, []byte(who.Org+"\x00"+who.Subject+"\x00"+key)).String()
	}
	ctx := c.Request().Context()
	if key != "" {
		// The key's case was erased: it stays gone, whatever the retry.
		if err := h.erasedProblem(ctx, who, caseID, nil); err != nil {
			return err
		}
	}
	if err := h.checkCasesPerDay(ctx, who, caseID); err != nil {
		return err
	}
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
		Description: stored.Description, UserWait: h.UserWait, TurnTimeout: h.TurnTimeout,
	})
	if err != nil {
		return fmt.Errorf("%w: start case workflow: %w", errUnavailable, err)
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/cases/"+caseID)
	return c.JSON(http.StatusCreated, CreateCaseResponse{
		CaseID: caseID, Phase: stored.Phase, Status: stored.Status, WorkflowID: workflowID,
	})
}

// ownCase loads the case in the path, answering not found for other users' cases, and
// gone for the caller's erased ones. A user is the pair (organization, subject): the
// same subject in another organization is someone else.
func (h *handlers) ownCase(c echo.Context) (store.Case, error) {
	id := c.Param("id")
	if _, err := uuid.Parse(id); err != nil {
		return store.Case{}, problemf(store.ErrNotFound, "no case "+id)
	}
	who := identity(c)
	cs, err := h.Store.GetCase(c.Request().Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Case{}, h.erasedProblem(c.Request().Context(), who, id, problemf(store.ErrNotFound, "no case "+id))
	}
	if err == nil && (cs.UserID != who.Subject || cs.OrgID != who.Org) {
		return store.Case{}, problemf(store.ErrNotFound, "no case "+id)
	}
	if err != nil {
		return store.Case{}, fmt.Errorf("%w: read case: %w", errUnavailable, err)
	}
	return cs, nil
}

// CaseView is a case as GET /v1/cases/{id} shows it: the stored case with the status
// its workflow last recorded (state: tier, what it waits on, the escalation; seq and
// updated_at say how fresh it is), read from the store with no Temporal call.
type CaseView struct {
	store.Case
}

func (h *handlers) getCase(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	if cs.Hold != nil { // its owner reads why and since when, not which admin set it
		cs.Hold = &store.Hold{Reason: cs.Hold.Reason, At: cs.Hold.At}
	}
	cs = failuresFor(c).caseOf(cs)
	// What the models wrote in case_details holds the parties' placeholders.
	parties, err := h.modelParties(c.Request().Context(), cs.ID)
	if err != nil {
		return err
	}
	if len(parties) > 0 {
		cs.Details, _ = reidentify.Value(cs.Details, parties).(map[string]any)
	}
	return c.JSON(http.StatusOK, CaseView{Case: cs})
}

// statusOf is the status cs's workflow last recorded or, before it recorded one, the
// phase and status the case was created with.
func statusOf(cs store.Case) schemas.CaseStatus {
	if cs.State == nil {
		return schemas.CaseStatus{Phase: cs.Phase, Status: cs.Status}
	}
	return *cs.State
}

// CloseView answers POST /v1/cases/{id}/close: the case's status, "closing" until
// its workflow has it, with the close-case update's ID.
type CloseView struct {
	CaseID   string `json:"case_id"`
	Status   string `json:"status"`
	UpdateID string `json:"update_id,omitempty"`
}

// CloseRequest closes a case.
type CloseRequest struct {
	Note string `json:"note"`
}

// closeCase sends the close-case update: the client is done with the case. The case
// workflow records it and completes; closing a closed case changes nothing. It
// answers 200 once the case is closed, or 202 "closing" with the update's ID if the
// case did not say so within updateWait.
func (h *handlers) closeCase(c echo.Context) error {
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
	if utf8.RuneCountInString(req.Note) > schemas.MaxNoteChars {
		return problemf(errInvalidInput, fmt.Sprintf("note is at most %d characters", schemas.MaxNoteChars))
	}
	if cs.Status == schemas.StatusClosed {
		return c.JSON(http.StatusOK, CloseView{CaseID: cs.ID, Status: cs.Status})
	}
	ctx := c.Request().Context()
	closing := schemas.CloseCase{Note: strings.TrimSpace(req.Note), By: identity(c).Subject}
	id, err := h.auditID(c, schemas.ActionClose, cs.OrgID, cs.ID, map[string]any{"note": closing.Note})
	if err != nil {
		return err
	}
	out, _, err := h.updateCase(ctx, updateWait, cs.ID, schemas.UpdateCloseCase, id, closing, client.WorkflowUpdateStageCompleted)
	switch {
	case errors.Is(err, errCaseClosed):
		out.Status = schemas.StatusClosed
	case errors.Is(err, errCaseNotRunning):
		// The workflow may have completed, closed, before the update reached it.
		if stored, serr := h.Store.GetCase(ctx, cs.ID); serr != nil || stored.Status != schemas.StatusClosed {
			return err
		}
		out.Status = schemas.StatusClosed
	case err != nil:
		return err
	}
	if out.Status == schemas.StatusClosed {
		return c.JSON(http.StatusOK, CloseView{CaseID: cs.ID, Status: out.Status})
	}
	return c.JSON(http.StatusAccepted, CloseView{CaseID: cs.ID, Status: "closing", UpdateID: out.ID})
}

// checkCasesPerDay refuses a new case past the day's limits of its user and of their
// organization (UTC days), counted in the store, so across API replicas; concurrent
// creates may pass a limit by the few that race. A create that finds its case stored
// (a retry with the same Idempotency-Key) is no new case.
func (h *handlers) checkCasesPerDay(ctx context.Context, who auth.Identity, caseID string) error {
	if h.CasesPerDay == 0 && h.OrgCasesPerDay == 0 {
		return nil
	}
	if _, err := h.Store.GetCase(ctx, caseID); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: read case: %w", errUnavailable, err)
	}
	now := h.now().UTC()
	day := now.Truncate(24 * time.Hour)
	for _, limit := range []struct {
		subject string
		max     int
		whose   string
	}{{who.Subject, h.CasesPerDay, "you"}, {"", h.OrgCasesPerDay, "your organization"}} {
		if limit.max == 0 || (limit.subject == "" && who.Org == "") {
			continue
		}
		n, err := h.Store.CountCases(ctx, who.Org, limit.subject, day)
		if err != nil {
			return fmt.Errorf("%w: count cases: %w", errUnavailable, err)
		}
		if n >= limit.max {
			return tooMany(fmt.Sprintf("%s opened %d cases today, the limit (UTC days)", limit.whose, n), day.Add(24*time.Hour).Sub(now))
		}
	}
	return nil
}
