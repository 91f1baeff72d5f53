package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// Typed nil receivers: workflows name activities through their methods, and the worker
// registers the real structs. The tool loop runs tools by the activity names in the
// tools registry.
var (
	casesActs      *activities.Cases
	transcriptActs *activities.Transcript
	modelActs      *activities.Model
	researchActs   *activities.Research
	quotaActs      *activities.Quota
	paymentActs    *activities.Payments
	actionActs     *activities.Actions
	ticketActs     *activities.Tickets
	draftActs      *activities.Drafts
	docActs        *activities.Documents
	toolActs       *activities.ToolRunner
	deadlineActs   *activities.Deadlines
	notifyActs     *activities.Notifications
)

// modelOptions govern one model call. The endpoint's refusals (400, 401, 403, ...) are
// not retried; timeouts, rate limits and server errors are, with backoff, four times in
// all. The call heartbeats while it streams (activities.heartbeatEvery), so a worker
// that dies mid-call is noticed after HeartbeatTimeout and the call retried on another,
// not after the StartToCloseTimeout. Timeouts are not part of what a replay compares,
// so turns scheduled before the heartbeat timeout replay unchanged.
var modelOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 2 * time.Minute,
	HeartbeatTimeout:    10 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        30 * time.Second,
		MaximumAttempts:        4,
		NonRetryableErrorTypes: []string{schemas.ErrModelRejected, schemas.ErrInvalidArgs},
	},
}

// storeOptions govern writes of the transcript, the case phase and the case's records:
// short, and retried for up to a day while the store is unreachable, since a case
// should not be left half recorded. Writes the activities report as non-retryable
// (ErrInvalidArgs: a record whose shape forbids the write, a case gone from the store)
// fail at once.
var storeOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    10 * time.Second,
	ScheduleToCloseTimeout: 24 * time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        time.Minute,
		NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs},
	},
}

// failedTurnOptions govern the publishing of a failed turn's turn.failed: a store
// write as storeOptions says, but retried for a few minutes only, since the turn's
// failure waits for it.
var failedTurnOptions = func() workflow.ActivityOptions {
	o := storeOptions
	o.ScheduleToCloseTimeout = 5 * time.Minute
	return o
}()

// localOptions are o's timeouts and retry policy for a local activity.
func localOptions(o workflow.ActivityOptions) workflow.LocalActivityOptions {
	return workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: o.ScheduleToCloseTimeout, StartToCloseTimeout: o.StartToCloseTimeout,
		RetryPolicy: o.RetryPolicy, Summary: o.Summary,
	}
}

// citationOptions govern the citation check of a reply: local reads of the corpus,
// tried three times within two minutes.
var citationOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    30 * time.Second,
	ScheduleToCloseTimeout: 2 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumAttempts:        3,
		NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs},
	},
}

// toolOptions are the activity options of a tool's declared policy, for the workflows
// that run a tool's activity themselves.
func toolOptions(name string) workflow.ActivityOptions {
	tool, _ := tools.Get(name)
	return tool.Policy.Options()
}
