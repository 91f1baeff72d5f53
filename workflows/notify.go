package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// notifyOptions govern one notification: a send takes seconds, and is retried with
// backoff for up to an hour while the mail server or the store is down. A Notify
// retried after a recorded send sends nothing again (its Key), so retrying is safe.
var notifyOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    30 * time.Second,
	ScheduleToCloseTimeout: time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        5 * time.Minute,
		NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs},
	},
}

// notify sends n, and logs rather than fails when it cannot be sent: a reminder that
// could not go out must not stop the timers of those after it.
func notify(ctx workflow.Context, n schemas.Notification, summary string) {
	opts := notifyOptions
	opts.Summary = summary
	var res schemas.NotificationResult
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), notifyActs.Notify, n).Get(ctx, &res)
	if err != nil {
		workflow.GetLogger(ctx).Warn("Notification not sent", "key", n.Key, "error", err)
	}
}
