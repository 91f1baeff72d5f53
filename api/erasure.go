package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	enums "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Erasure refusals and answers.
var (
	// errLegalHold is an erasure refused by a legal hold.
	errLegalHold = errors.New("legal hold")
	// errCaseErased is a case that was erased: it is gone for good.
	errCaseErased = errors.New("case erased")
	// errErasing is a hold refused because the case's erasure has begun.
	errErasing = errors.New("case being erased")
)

// DefaultEraseWait is how long DELETE /v1/cases/{id} waits for the erasure to finish
// before it answers 202 with where to follow it.
const DefaultEraseWait = 15 * time.Second

// Erasure statuses.
const (
	erasureRunning  = "erasing"
	erasureFinished = "erased"
)

// ErasureView is an erasure's receipt as the API shows it.
type ErasureView struct {
	schemas.Erasure
	// Status is "erasing" until the erasure finishes, then "erased".
	Status string `json:"status"`
}

func erasureView(e schemas.Erasure) ErasureView {
	v := ErasureView{Erasure: e, Status: erasureRunning}
	if e.ErasedAt != nil {
		v.Status = erasureFinished
	}
	return v
}

// mayErase reports whether who may erase a case of org's subject: its owner, or an
// admin whose scope covers org.
func mayErase(who auth.Identity, org, subject string) bool {
	return who.Org == org && who.Subject == subject || who.Has(schemas.RoleAdmin) && inScope(who, org)
}

// eraseCase answers DELETE /v1/cases/{id}: it starts the case's Erase workflow and
// answers with the receipt once it finishes (200), or, after EraseWait, with the
// erasure still running (202, Location: its receipt). A case under a legal hold is 409;
// erasing an erased case answers with its receipt. An admin's erasure of another's
// case is audited.
func (h *handlers) eraseCase(c echo.Context) error {
	id, who, ctx := c.Param("id"), identity(c), c.Request().Context()
	if _, err := uuid.Parse(id); err != nil {
		return problemf(store.ErrNotFound, "no case "+id)
	}
	// An erasure begun and not finished (its workflow failed, or runs) is taken up
	// again from its receipt: the case may be gone from the store already.
	e, err := h.Store.GetErasure(ctx, id)
	switch {
	case err == nil:
		if !mayErase(who, e.OrgID, e.UserID) {
			return problemf(store.ErrNotFound, "no case "+id)
		}
		if e.ErasedAt != nil {
			return c.JSON(http.StatusOK, erasureView(e))
		}
	case errors.Is(err, store.ErrNotFound):
		cs, err := h.Store.GetCase(ctx, id)
		if errors.Is(err, store.ErrNotFound) || err == nil && !mayErase(who, cs.OrgID, cs.UserID) {
			return problemf(store.ErrNotFound, "no case "+id)
		}
		if err != nil {
			return fmt.Errorf("%w: read case: %w", errUnavailable, err)
		}
		if cs.Hold != nil {
			return holdProblem(who, cs.Hold)
		}
		e = schemas.Erasure{CaseID: id, OrgID: cs.OrgID, UserID: cs.UserID}
	default:
		return fmt.Errorf("%w: read erasure: %w", errUnavailable, err)
	}
	if who.Org != e.OrgID || who.Subject != e.UserID {
		if err := h.audit(c, schemas.ActionErase, e.OrgID, id, nil); err != nil {
			return err
		}
	}
	run, err := h.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                    schemas.EraseWorkflowID(id),
		TaskQueue:             h.TaskQueue,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
		// A running erasure is joined, not started twice.
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, schemas.EraseWorkflow, schemas.EraseInput{CaseID: id, By: who.Subject, Reason: schemas.ErasureRequested, At: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("%w: start erasure: %w", errUnavailable, err)
	}
	wait := h.EraseWait
	if wait <= 0 {
		wait = DefaultEraseWait
	}
	httpserver.Extend(c.Response().Writer, wait+answerMargin)
	waitCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var receipt schemas.Erasure
	err = run.Get(waitCtx, &receipt)
	var app *temporal.ApplicationError
	switch {
	case err == nil:
		return c.JSON(http.StatusOK, erasureView(receipt))
	case errors.As(err, &app) && app.Type() == schemas.ErrLegalHold:
		// A hold set after the check above.
		if cs, err := h.Store.GetCase(ctx, id); err == nil && cs.Hold != nil {
			return holdProblem(who, cs.Hold)
		}
		return problemf(errLegalHold, "the case is under a legal hold")
	case ctx.Err() != nil:
		return ctx.Err()
	}
	// The wait ended first; the erasure may have finished since, or still run.
	if got, gerr := h.Store.GetErasure(ctx, id); gerr == nil {
		if got.ErasedAt != nil {
			return c.JSON(http.StatusOK, erasureView(got))
		}
		e = got
	}
	d, derr := h.Temporal.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
	if derr != nil || d.GetWorkflowExecutionInfo().GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
		c.Response().Header().Set(echo.HeaderLocation, "/v1/cases/"+id+"/erasure")
		return c.JSON(http.StatusAccepted, erasureView(e))
	}
	return fmt.Errorf("%w: the erasure failed and may be asked for again: %w", errUnavailable, err)
}

// holdProblem is the 409 of a case under a legal hold: when and why, and, for an
// admin, who set it.
func holdProblem(who auth.Identity, h *store.Hold) error {
	by := ""
	if who.Has(schemas.RoleAdmin) {
		by = " by " + h.By
	}
	return problemf(errLegalHold, fmt.Sprintf("the case is under a legal hold set%s on %s: %s",
		by, h.At.UTC().Format(time.RFC3339), h.Reason))
}

// getErasure answers GET /v1/cases/{id}/erasure: the receipt of the case's erasure,
// to its owner or an admin in scope.
func (h *handlers) getErasure(c echo.Context) error {
	id := c.Param("id")
	e, err := h.Store.GetErasure(c.Request().Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !mayErase(identity(c), e.OrgID, e.UserID) {
		return problemf(store.ErrNotFound, "no erasure of case "+id)
	}
	if err != nil {
		return fmt.Errorf("%w: read erasure: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, erasureView(e))
}

// erasedProblem is the answer for a case that the caller owned and was erased: 410,
// with when; for anyone else, or a case never erased, it is notFound.
func (h *handlers) erasedProblem(ctx context.Context, who auth.Identity, id string, notFound error) error {
	e, err := h.Store.GetErasure(ctx, id)
	if err != nil || e.OrgID != who.Org || e.UserID != who.Subject {
		return notFound
	}
	when := e.RequestedAt
	if e.ErasedAt != nil {
		when = *e.ErasedAt
	}
	return problemf(errCaseErased, fmt.Sprintf("case %s was erased at %s", id, when.UTC().Format(time.RFC3339)))
}
