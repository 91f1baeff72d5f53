package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/schemas"
)

// answerMargin is what a request that waits on a workflow for up to some time is given
// beyond it, to be answered (see httpserver.Extend).
const answerMargin = 30 * time.Second

// runShort starts a short workflow a request waits for (a citation check, a query, an
// admin's tool run) and waits up to wait for its result into out; opts bound the run
// itself. What names the run in errors. The run's refusals become problems: invalid
// arguments 422, a used-up model-token budget 402 with Retry-After; a run that does
// not finish in time (no worker, say) is 503.
func (h *handlers) runShort(c echo.Context, opts client.StartWorkflowOptions, wait time.Duration, what, workflowType string, in, out any) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), wait)
	defer cancel()
	httpserver.Extend(c.Response().Writer, wait+answerMargin)
	opts.TaskQueue = h.TaskQueue
	run, err := h.Temporal.ExecuteWorkflow(ctx, opts, workflowType, in)
	if err != nil {
		return fmt.Errorf("%w: start the %s: %w", errUnavailable, what, err)
	}
	err = run.Get(ctx, out)
	var app *temporal.ApplicationError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &app) && app.Type() == schemas.ErrInvalidArgs:
		return problemf(errInvalidInput, app.Message())
	case errors.As(err, &app) && app.Type() == schemas.ErrBudgetExhausted:
		b, _ := schemas.BudgetExhaustedOf(err)
		return &budgetWait{&detailed{kind: errBudgetExhausted, detail: app.Message()}, b.ResumeAt}
	case c.Request().Context().Err() != nil:
		return c.Request().Context().Err()
	}
	return fmt.Errorf("%w: the %s did not finish: %w", errUnavailable, what, err)
}
