package activities

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/tools"
)

// logRetry writes LEXE's executor line for a tool call that failed and that its policy
// runs again: "[kb_search] Got 503, retrying (attempt 1)" for a gateway error,
// "[lex_search] Timeout, retrying (attempt 1)" for a timeout (seed 000). Failures not
// retried are logged by the worker as any activity error.
func logRetry(ctx context.Context, tool *tools.Tool, err error) {
	if !activity.IsActivity(ctx) {
		return
	}
	attempt := activity.GetInfo(ctx).Attempt
	var appErr *temporal.ApplicationError
	if attempt >= tool.Policy.MaxAttempts || (errors.As(err, &appErr) && appErr.NonRetryable()) {
		return
	}
	if line := retryLine(tool.Name, err, attempt); line != "" {
		activity.GetLogger(ctx).Warn(line)
	}
}

// retryLine is logRetry's line for err, or "" for a failure of another kind.
func retryLine(tool string, err error, attempt int32) string {
	var status interface{ HTTPStatus() int }
	switch {
	case errors.As(err, &status):
		return fmt.Sprintf("[%s] Got %d, retrying (attempt %d)", tool, status.HTTPStatus(), attempt)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Sprintf("[%s] Timeout, retrying (attempt %d)", tool, attempt)
	}
	return ""
}

// isTimeout reports a network timeout.
func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
