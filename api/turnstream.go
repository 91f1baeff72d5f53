package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// streamTurn streams the turn that the accepted send-message update of message runs:
// the events of the case's log after the number noted before the update, from the turn.started
// that carries the update's ID on, the turn's own and the case's, as GET
// /v1/cases/{id}/events writes them. It ends with the turn's answer, the same JSON the
// request answers without streaming, as a turn.completed (or turn.cancelled) event
// numbered like the logged one, or with a turn.failed event whose data is the problem:
// numbered like the logged turn.failed when the turn failed, and not numbered (0) when
// the log has none (the case refused the message once its turn came, say because it
// ran out of budget meanwhile; a turn that failed before turn.failed was published).
// A refusal the case can tell at once (a closed case) answers as a problem before any
// streaming. A stream that ends first (the client leaves, the server shuts down, the
// token expires or an hour passes, the last two with a reconnect event) ends without
// the answer, which GET /v1/cases/{id}/events and the transcript still hold; the turn
// goes on either way.
func (h *handlers) streamTurn(c echo.Context, caseID, message string, after int64, requestID string, handle client.WorkflowUpdateHandle) error {
	ctx := c.Request().Context()
	if err := refused(handle); err != nil {
		return updateError(err)
	}
	done := make(chan outcome, 1)
	answered := make(chan struct{})
	go func() {
		res, err := h.turnResult(ctx, caseID, message, handle)
		done <- outcome{res, err}
		close(answered)
	}()
	f := h.follow(c, caseID, after, failuresFor(c).event)
	defer f.close()
	turnID := ""
	var result *outcome
	wake := (<-chan struct{})(answered)
	for {
		events, err := f.read()
		if err != nil {
			return f.finish(0, "", &outcome{err: fmt.Errorf("%w: read the event log: %w", errUnavailable, err)})
		}
		for _, e := range events {
			if turnID == "" {
				turnID = startedBy(e, requestID)
			}
			if turnID == "" || (e.TurnID != turnID && e.TurnID != "") {
				continue // before this request's turn, or another turn's
			}
			if e.TurnID == turnID && (e.Type == schemas.EventTurnCompleted || e.Type == schemas.EventTurnCancelled || e.Type == schemas.EventTurnFailed) {
				if result == nil {
					if result = f.awaitOutcome(done, e); result == nil {
						return nil
					}
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
			// written before it: the case refused the message, the turn failed
			// without publishing turn.failed, or it started before this request (a
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

// refused returns the update's error if the case refused it at once (its validator,
// or a handler that failed before the update was accepted): the handle then holds its
// outcome already, and a cancelled context reads it without waiting.
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

// awaitOutcome waits for the update's result once the turn's last event is logged:
// the Case answers after moving on (its status, a pause), moments later. Past
// answerWait it gives the logged turn's result, without the case's phase and status;
// nil when the stream must end first.
func (f *follower) awaitOutcome(done <-chan outcome, logged store.Event) *outcome {
	timeout := time.NewTimer(answerWait)
	defer timeout.Stop()
	for {
		select {
		case o := <-done:
			return &o
		case <-timeout.C:
			if logged.Type == schemas.EventTurnFailed {
				var failed schemas.TurnFailedEvent
				_ = json.Unmarshal(logged.Body, &failed)
				return &outcome{err: fmt.Errorf("%w: %s", errTurnFailed, failed.Reason)}
			}
			var res schemas.TurnResult
			if err := json.Unmarshal(logged.Body, &res); err != nil {
				return &outcome{err: fmt.Errorf("read the logged answer: %w", err)}
			}
			return &outcome{res: res}
		case <-f.c.Request().Context().Done():
			return nil
		case <-f.h.streams.done():
			return nil
		case <-f.idle.C:
			if !f.keepAlive() {
				return nil
			}
		}
	}
}

// finish writes the stream's last event, numbered id when the log holds it (0 when
// not): the answer, or the problem of a failed turn.
func (f *follower) finish(id int64, typ string, o *outcome) error {
	if o.err != nil {
		p := toProblem(o.err)
		p.Instance = f.c.Request().URL.Path
		return f.write(id, schemas.EventTurnFailed, p)
	}
	if o.res.Cancelled {
		typ = schemas.EventTurnCancelled
	}
	return f.write(id, typ, failuresFor(f.c).turn(o.res))
}
