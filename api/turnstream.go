package api

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// answerWait bounds how long a stream waits, after the turn's terminal event, for the
// update's result: the Case answers moments after the turn ends.
const answerWait = 30 * time.Second

// outcome is a send-message update's result.
type outcome struct {
	res schemas.TurnResult
	err error
}

// streamTurn streams the turn that the accepted send-message update runs: the events
// of the case's log after the number noted before the update, from the turn.started
// that carries the update's ID on, the turn's own and the case's, as GET
// /v1/cases/{id}/events writes them. It ends with the turn's answer, the same JSON the
// request answers without streaming, as a turn.completed (or turn.cancelled) event
// numbered like the logged one, or, when the turn failed, a turn.failed event whose
// data is the problem. A validator's refusal (a closed case, say) answers as a problem
// before any streaming. A client that goes away stops watching; the turn goes on.
func (h *Handlers) streamTurn(c echo.Context, caseID string, after int64, requestID string, handle client.WorkflowUpdateHandle) error {
	ctx := c.Request().Context()
	if err := refused(handle); err != nil {
		return updateError(err)
	}
	done := make(chan outcome, 1)
	answered := make(chan struct{})
	go func() {
		res, err := h.turnResult(ctx, handle)
		done <- outcome{res, err}
		close(answered)
	}()
	f := h.follow(c, caseID, after)
	defer f.close()
	turnID := ""
	var result *outcome
	wake := (<-chan struct{})(answered)
	for {
		events, err := f.read()
		if err != nil {
			return nil
		}
		for _, e := range events {
			if turnID == "" {
				turnID = startedBy(e, requestID)
			}
			if turnID == "" || (e.TurnID != turnID && e.TurnID != "") {
				continue // before this request's turn, or another turn's
			}
			if e.TurnID == turnID && (e.Type == schemas.EventTurnCompleted || e.Type == schemas.EventTurnCancelled) {
				if result == nil {
					result = awaitOutcome(done)
				}
				return f.finish(e.Seq, e.Type, result)
			}
			if f.send(e) != nil {
				return nil
			}
		}
		if len(events) == streamBatch {
			continue
		}
		if result != nil {
			// The log was read after the answer came, and a turn's events are all
			// written before it: the turn failed, or started before this request (a
			// repeated Idempotency-Key).
			return f.finish(0, schemas.EventTurnCompleted, result)
		}
		if !f.wait(wake) {
			return nil
		}
		select {
		case o := <-done:
			result, wake = &o, nil
		default:
		}
	}
}

// refused returns the update's error if the validator refused it: the handle then
// holds its outcome already, and a cancelled context reads it without waiting.
func refused(handle client.WorkflowUpdateHandle) error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var res schemas.TurnResult
	err := handle.Get(ctx, &res)
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		return err
	}
	return nil
}

// startedBy is the turn that an event starts for the request, or "".
func startedBy(e store.Event, requestID string) string {
	if e.Type != schemas.EventTurnStarted {
		return ""
	}
	var body schemas.TurnStartedEvent
	if json.Unmarshal(e.Body, &body) != nil || body.RequestID != requestID {
		return ""
	}
	return e.TurnID
}

// awaitOutcome waits, at most answerWait, for the update's result.
func awaitOutcome(done <-chan outcome) *outcome {
	select {
	case o := <-done:
		return &o
	case <-time.After(answerWait):
		return &outcome{err: errors.New("the turn ended, but its answer did not come")}
	}
}

// finish writes the stream's last event: the answer, or the problem of a failed turn.
func (f *follower) finish(id int64, typ string, o *outcome) error {
	if o.err != nil {
		p := toProblem(o.err)
		p.Instance = f.c.Request().URL.Path
		return f.write(0, schemas.EventTurnFailed, p)
	}
	if o.res.Cancelled {
		typ = schemas.EventTurnCancelled
	}
	return f.write(id, typ, o.res)
}
