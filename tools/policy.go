package tools

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// Policy is how a tool's activity is run: its timeout and its retries. It becomes the
// activity's Temporal options, so Temporal is the only thing that retries.
type Policy struct {
	// Timeout bounds one attempt.
	Timeout time.Duration `json:"timeout"`
	// MaxAttempts counts the first attempt: 1 means no retry.
	MaxAttempts int32 `json:"max_attempts"`
	// RetryInterval is the wait before the first retry; later ones double it.
	RetryInterval time.Duration `json:"retry_interval"`
	// RetryOn says which failures are retried, for people reading GET /v1/tools.
	RetryOn string `json:"retry_on,omitempty"`
}

// Options returns the Temporal activity options of the policy. Invalid arguments are
// never retried.
func (p Policy) Options() workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: p.Timeout,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        p.RetryInterval,
			BackoffCoefficient:     2,
			MaximumAttempts:        p.MaxAttempts,
			NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs},
		},
	}
}

// The policies of the tools, named and declared once.
var (
	// lexeNoRetry is LEXE's table for web_search, normattiva_search, eurlex_search and
	// infolex_search: 30 s, no retry.
	lexeNoRetry = Policy{Timeout: 30 * time.Second, MaxAttempts: 1}

	// kbSearchPolicy, lexSearchPolicy and lexSearchEnrichedPolicy are LEXE's
	// _post_with_retry: one retry after 1 s on 502, 503, 504 or a timeout. Their
	// activities report every other failure as non-retryable.
	kbSearchPolicy          = Policy{Timeout: 20 * time.Second, MaxAttempts: 2, RetryInterval: time.Second, RetryOn: retryOnUpstream}
	lexSearchPolicy         = Policy{Timeout: 15 * time.Second, MaxAttempts: 2, RetryInterval: time.Second, RetryOn: retryOnUpstream}
	lexSearchEnrichedPolicy = Policy{Timeout: 30 * time.Second, MaxAttempts: 2, RetryInterval: time.Second, RetryOn: retryOnUpstream}

	// caseToolPolicy is seed 003's "retry up to 2 times" for its tools: three attempts
	// of 10 s, one second apart, then two.
	caseToolPolicy = Policy{Timeout: 10 * time.Second, MaxAttempts: 3, RetryInterval: time.Second, RetryOn: retryOnTransient}

	// legalSQLPolicy: seed 003's retries, with a 15 s limit on a query.
	legalSQLPolicy = Policy{Timeout: 15 * time.Second, MaxAttempts: 3, RetryInterval: time.Second, RetryOn: "database errors and timeouts"}

	// draftPolicy: rendering a PDF takes longer than a case read.
	draftPolicy = Policy{Timeout: time.Minute, MaxAttempts: 3, RetryInterval: time.Second, RetryOn: retryOnTransient}

	// reasonerPolicy: a model call, retried as model calls are.
	reasonerPolicy = Policy{Timeout: 2 * time.Minute, MaxAttempts: 4, RetryInterval: time.Second, RetryOn: "timeouts, 408, 409, 429 and 5xx"}
)

const (
	retryOnUpstream  = "502, 503, 504 or a timeout"
	retryOnTransient = "store or network errors and timeouts"
)
