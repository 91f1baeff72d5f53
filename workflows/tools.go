package workflows

import (
	"encoding/json"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

// Typed nil receivers: workflows name activities through their methods, and the worker
// registers the real structs.
var (
	casesActs      *activities.Cases
	transcriptActs *activities.Transcript
	modelActs      *activities.Model
)

// caseToolRetry is seed 003's "retry up to 2 times" for the case tools: three attempts in
// all, one second apart and then two. Invalid arguments are never retried.
var caseToolRetry = &temporal.RetryPolicy{
	InitialInterval:        time.Second,
	BackoffCoefficient:     2,
	MaximumAttempts:        3,
	NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs},
}

// getCaseDetailsOptions: one read of the case document.
var getCaseDetailsOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 10 * time.Second,
	RetryPolicy:         caseToolRetry,
}

// updateCaseDetailsOptions: one write of the case document.
var updateCaseDetailsOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 10 * time.Second,
	RetryPolicy:         caseToolRetry,
}

// toolDef is one tool the model may call: the activity that runs it, its policy, and
// how its arguments are decoded.
type toolDef struct {
	name     string
	activity any
	options  workflow.ActivityOptions
	// decode turns the model's arguments, already bound to the case, into the
	// activity's argument struct.
	decode func(args []byte) (any, error)
}

// tools are the tools a chat turn offers, in the order the model sees them.
var tools = []toolDef{
	{schemas.ToolGetCaseDetails, casesActs.GetCaseDetails, getCaseDetailsOptions, decodeArgs[schemas.GetCaseDetailsArgs]},
	{schemas.ToolUpdateCaseDetails, casesActs.UpdateCaseDetails, updateCaseDetailsOptions, decodeArgs[schemas.UpdateCaseDetailsArgs]},
}

// toolNames lists the tools' names, as the model request carries them.
func toolNames() []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.name
	}
	return names
}

func findTool(name string) (toolDef, bool) {
	for _, t := range tools {
		if t.name == name {
			return t, true
		}
	}
	return toolDef{}, false
}

func decodeArgs[T any](args []byte) (any, error) {
	var v T
	err := json.Unmarshal(args, &v)
	return v, err
}

// modelOptions govern one model call. The endpoint's refusals (400, 401, 403, ...) are
// not retried; timeouts, rate limits and server errors are, with backoff, four times in all.
var modelOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 2 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        30 * time.Second,
		MaximumAttempts:        4,
		NonRetryableErrorTypes: []string{schemas.ErrModelRejected, schemas.ErrInvalidArgs},
	},
}

// storeOptions govern writes of the transcript and the case phase: short, and retried
// until the store answers, since a turn cannot be left half recorded.
var storeOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 10 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    time.Minute,
	},
}
