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

// Longest is the longest a call may take under the policy: every attempt's timeout
// and every wait between them. It does not count the time a call waits for a worker.
func (p Policy) Longest() time.Duration {
	total, wait := p.Timeout, p.RetryInterval
	for range max(p.MaxAttempts, 1) - 1 {
		total += wait + p.Timeout
		wait *= 2
	}
	return total
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

	// legislationSearchPolicy: the shipped corpus answers in milliseconds; one retry
	// after 1 s covers a database busy for a moment.
	legislationSearchPolicy = Policy{Timeout: 10 * time.Second, MaxAttempts: 2, RetryInterval: time.Second, RetryOn: retryOnTransient}

	// caseToolPolicy is seed 003's "retry up to 2 times" for its tools: three attempts
	// of 10 s, one second apart, then two.
	caseToolPolicy = Policy{Timeout: 10 * time.Second, MaxAttempts: 3, RetryInterval: time.Second, RetryOn: retryOnTransient}

	// legalSQLPolicy: seed 003's retries, with a 15 s limit on a query.
	legalSQLPolicy = Policy{Timeout: 15 * time.Second, MaxAttempts: 3, RetryInterval: time.Second, RetryOn: "database errors and timeouts"}

	// legalTextPolicy: a read of the corpus (or the store's current texts) by key,
	// retried as a case read is.
	legalTextPolicy = Policy{Timeout: 10 * time.Second, MaxAttempts: 3, RetryInterval: time.Second, RetryOn: retryOnTransient}

	// draftPolicy: rendering a PDF takes longer than a case read.
	draftPolicy = Policy{Timeout: time.Minute, MaxAttempts: 3, RetryInterval: time.Second, RetryOn: retryOnTransient}

	// ragSearchPolicy: reading and pseudonymizing a case's documents (up to a few
	// megabytes of text) and ranking their passages; retried as a case read is.
	ragSearchPolicy = Policy{Timeout: 30 * time.Second, MaxAttempts: 3, RetryInterval: time.Second, RetryOn: retryOnTransient}

	// systemStatsPolicy: system_stats reads its parts at once, each within 5 s, and
	// answers the parts that answered; one retry when none did.
	systemStatsPolicy = Policy{Timeout: 15 * time.Second, MaxAttempts: 2, RetryInterval: time.Second, RetryOn: retryOnTransient}

	// reasonerPolicy: a model call, retried as model calls are.
	reasonerPolicy = Policy{Timeout: 2 * time.Minute, MaxAttempts: 4, RetryInterval: time.Second, RetryOn: "timeouts, 408, 409, 429 and 5xx"}
)

// Ladder is a tool's escalation policy: how far its failure climbs once Temporal's
// retries have run out. Each rung is visible in the turn's history, in the case's state
// and in the transcript.
type Ladder struct {
	// Reasoner: consult the reasoner (ConsultReasoner) with the failure, and follow its
	// advice once: retry with corrected arguments, or call another tool.
	Reasoner bool `json:"reasoner"`
	// User: failing that, ask the client and wait (waiting_user) for the case's
	// user-wait time; the answer's turn retries the tool first. When that retry fails
	// too, or no answer comes in time, open a support ticket (SupportTicket) and pause
	// the case (paused_support): a question the client cannot resolve goes to support.
	User bool `json:"user"`
}

// String names the rungs, as docs/tools.md's tool table shows them.
func (l Ladder) String() string {
	switch {
	case l.User:
		return "reasoner → user → ticket"
	case l.Reasoner:
		return "reasoner"
	}
	return "model is told"
}

// The ladders of the escalate-class tools. A degrade-class tool has none: its failure
// is told to the model, as every tool's is at the end of its ladder's rungs within a
// turn.
var (
	// fullLadder is for the tools a case cannot do without: the case's own data, its
	// parties, its drafts and its quota.
	fullLadder = Ladder{Reasoner: true, User: true}
	// reasonerOnly is for create_support_ticket: asking the client, then opening a
	// ticket, would only fail again.
	reasonerOnly = Ladder{Reasoner: true}
)

// Failure is a tool's failure class: what a failure that survived its retries does
// to the turn.
type Failure string

const (
	// Escalate climbs the tool's Ladder: the case depends on the step (its data, its
	// parties, its drafts, its quota, its tickets).
	Escalate Failure = "escalate"
	// Degrade tells the model "[Tool <name> failed: <reason>]" and the turn carries
	// on from what else it found: no reasoner, no question to the client, no ticket,
	// no pause (seed 000's research tools). The failure is counted for the source, so
	// that one that keeps failing opens an operator ticket (schemas.SourceTicketID).
	Degrade Failure = "degrade"
)

const (
	retryOnUpstream  = "502, 503, 504 or a timeout"
	retryOnTransient = "store or network errors and timeouts"
)
