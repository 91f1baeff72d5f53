package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// SendMessageRequest is the body of POST /v1/cases/{id}/messages: the message and the
// turn's toggles.
type SendMessageRequest struct {
	Message string `json:"message"`
	Toggles
}

// defaultTurnWait is how long a message waits for its turn's answer when the API is
// told no turn deadline: LEXFLOW_TURN_TIMEOUT's default.
const defaultTurnWait = 10 * time.Minute

// sendMessage runs one chat turn through the case workflow's send-message update and
// answers with the turn's result; with Accept: text/event-stream it streams the turn's
// events and ends with the result (see streamTurn). An Idempotency-Key header, scoped
// to the caller and the case, makes a retried request get the same turn's answer
// instead of running a second turn: within a workflow run it is the update's ID, which
// Temporal deduplicates, and the case remembers it for a day across continue-as-new.
func (h *handlers) sendMessage(c echo.Context) error {
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
	sel, err := req.Resolve(identity(c).Roles, slices.Collect(maps.Keys(h.Unavailable)))
	if err != nil {
		return problemf(errInvalidInput, err.Error())
	}
	if err := h.checkConcurrentTurns(c.Request().Context(), identity(c)); err != nil {
		return err
	}
	key, err := idempotencyKey(c)
	if err != nil {
		return err
	}
	msg := schemas.SendMessageRequest{Message: req.Message, Selection: sel}
	updateID := uuid.NewString()
	if key != "" {
		who := identity(c)
		msg.IdempotencyKey = keyDigest(who.Org, who.Subject, cs.ID, key)
		updateID = keyedUpdateID(msg.IdempotencyKey, req.Message)
	}
	msg.RequestID = updateID
	ctx := c.Request().Context()
	stream := wantsStream(c)
	var after int64
	stage := client.WorkflowUpdateStageCompleted
	if stream {
		// Before the update: a message refused its stream runs no turn.
		if _, err := streamDialect(c); err != nil {
			return err
		}
		release, err := h.streamsOpen.take(identity(c))
		if err != nil {
			return err
		}
		defer release()
		if after, err = h.Store.LastEventSeq(ctx, cs.ID); err != nil {
			return fmt.Errorf("%w: read the event log: %w", errUnavailable, err)
		}
		stage = client.WorkflowUpdateStageAccepted
	}
	handle, err := h.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   schemas.CaseWorkflowID(cs.ID),
		UpdateID:     updateID,
		UpdateName:   schemas.UpdateSendMessage,
		Args:         []any{msg},
		WaitForStage: stage,
	})
	if err != nil {
		return updateError(err)
	}
	if stream {
		return h.streamTurn(c, cs.ID, req.Message, after, updateID, handle)
	}
	// The answer waits for the turn, which ends by its deadline.
	httpserver.Extend(c.Response().Writer, cmp.Or(h.TurnTimeout, defaultTurnWait)+answerMargin)
	res, err := h.turnResult(ctx, cs.ID, req.Message, handle)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, failuresFor(c).turn(res))
}

// turnResult waits for the send-message update's result for message on case caseID:
// the turn's answer, or, for a repeated Idempotency-Key, the answer of the turn it
// started earlier, if it started it with the same message; re-identified for the
// client (reidentifiedTurn).
func (h *handlers) turnResult(ctx context.Context, caseID, message string, handle client.WorkflowUpdateHandle) (schemas.TurnResult, error) {
	var res schemas.TurnResult
	if err := handle.Get(ctx, &res); err != nil {
		return res, updateError(err)
	}
	if res.Repeated {
		if err := h.sameKeyedMessage(ctx, caseID, res.TurnID, message); err != nil {
			return schemas.TurnResult{}, err
		}
		var err error
		if res, err = h.earlierTurn(ctx, res); err != nil {
			return res, err
		}
	}
	return h.reidentifiedTurn(ctx, caseID, res)
}

// earlierTurn is the answer to a request whose Idempotency-Key started a turn earlier
// (perhaps in an earlier run of the case): that turn's result, read from the turn's
// workflow, with the case's phase and status now.
func (h *handlers) earlierTurn(ctx context.Context, r schemas.TurnResult) (schemas.TurnResult, error) {
	var res schemas.TurnResult
	if err := h.Temporal.GetWorkflow(ctx, r.TurnID, "").Get(ctx, &res); err != nil {
		return res, problemf(errConflict, "this Idempotency-Key started turn "+r.TurnID+", whose answer is no longer kept: see GET /v1/cases/{id}/messages")
	}
	res.Phase, res.Status = r.Phase, r.Status
	return res, nil
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
		return problemf(errPaymentRequired, appErr.Message()+"; pay through POST /v1/cases/{id}/checkout")
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrCasePaused:
		return problemf(errCasePaused, appErr.Message())
	case errors.As(err, &appErr) && appErr.Type() == schemas.ErrBudgetExhausted:
		b, _ := schemas.BudgetExhaustedOf(err)
		return &budgetWait{&detailed{kind: errBudgetExhausted, detail: appErr.Message()}, b.ResumeAt}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", errUnavailable, err)
	}
	return fmt.Errorf("%w: %w", errTurnFailed, err)
}

// CancelView answers POST /v1/cases/{id}/turns/current/cancel.
type CancelView struct {
	TurnID string `json:"turn_id"`
	Status string `json:"status"`
}

// Transcript answers GET /v1/cases/{id}/messages and support's read of it.
type Transcript struct {
	CaseID   string         `json:"case_id"`
	Messages []store.Record `json:"messages"`
}

// cancelTurn asks the case's running turn to stop: the step under way is cancelled.
// The turn's own request then answers with what it has, marked cancelled.
func (h *handlers) cancelTurn(c echo.Context) error {
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
	return c.JSON(http.StatusAccepted, CancelView{TurnID: res.TurnID, Status: "cancel_requested"})
}

func (h *handlers) listMessages(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	return h.transcript(c, cs, failuresFor(c).records)
}

// supportMessages answers a case's transcript to staff whose scope reaches it; the
// read is audited.
func (h *handlers) supportMessages(c echo.Context) error {
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	if err := h.audit(c, auditTranscript, cs.OrgID, cs.ID, nil); err != nil {
		return err
	}
	return h.transcript(c, cs, asKept.records)
}

// transcript answers the case's stored transcript, in turn order, as view shows it
// to the caller (clientRecords for the client).
func (h *handlers) transcript(c echo.Context, cs store.Case, view func([]store.Record) []store.Record) error {
	recs, err := h.Store.ListRecords(c.Request().Context(), cs.ID, 0, 0)
	if err != nil {
		return fmt.Errorf("%w: read transcript: %w", errUnavailable, err)
	}
	if recs == nil {
		recs = []store.Record{}
	}
	return c.JSON(http.StatusOK, Transcript{CaseID: cs.ID, Messages: view(recs)})
}
