// Package api is Lexflow's REST API on Echo: it authenticates callers, starts and drives
// Case workflows, and reads cases and transcripts from the store.
package api

import (
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/eventhub"
	"github.com/lexflow/lexflow/internal/health"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/metrics"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Handlers serves the API.
type Handlers struct {
	Temporal client.Client
	Store    store.Store
	// Metrics, when set, counts and times the requests and the streamed events.
	Metrics *metrics.Metrics
	// Tracer, when set, starts a span for each request (see traceRequests).
	Tracer trace.Tracer
	// readiness keeps /readyz's last answer for a second.
	readiness health.Readiness
	// states keeps the case workflows' states that queries answered (see caseStates).
	states caseStates
	// Auth verifies bearer tokens: auth.Verifiers (dev HS256 and OIDC), or one of them.
	Auth auth.Verifier
	// Prompts is reloaded by POST /v1/admin/prompts/reload.
	Prompts   *prompts.Library
	TaskQueue string
	// MaxSteps bounds the tool loop of the cases this API starts.
	MaxSteps int
	// Unavailable are tools this deployment cannot serve (no SearXNG, say): they are
	// never selected for a turn and are listed as unavailable.
	Unavailable []string
	Log         *slog.Logger
	// Blobs serves the draft PDFs.
	Blobs blob.Store
	// UserWait is how long the cases this API starts wait for a client's answer to an
	// escalation; StuckAfter how long a case may work without progress before support
	// lists it as stuck.
	UserWait   time.Duration
	StuckAfter time.Duration
	// TurnTimeout is the deadline of each chat turn of the cases this API starts.
	TurnTimeout time.Duration
	// EraseWait is how long DELETE /v1/cases/{id} waits for the erasure before it
	// answers 202 (DefaultEraseWait when zero).
	EraseWait time.Duration
	// Dev serves the dev-only routes of the route table.
	Dev bool
	// DevTokens mints the tokens of POST /dev/token, a dev-only route; nil mints none.
	DevTokens *auth.HS256
	// CasesPerDay bounds the cases a user opens in a UTC day, OrgCasesPerDay those of
	// an organization; 0 means no bound.
	CasesPerDay    int
	OrgCasesPerDay int
	// RequestsPerMinute bounds a user's requests to this process, OrgRequestsPerMinute
	// an organization's; 0 means no bound.
	RequestsPerMinute    int
	OrgRequestsPerMinute int
	// ToolRunsPerMinute bounds the tools one admin runs directly through this process
	// (POST /v1/admin/tools/execute); 0 means no bound.
	ToolRunsPerMinute int
	// OrgConcurrentTurns bounds the cases of one organization (or one user without
	// one) working on a turn at once; 0 means no bound.
	OrgConcurrentTurns int
	// MaxUploadBytes bounds an uploaded document (DefaultMaxUpload when 0);
	// DocumentsPerCase the documents a case holds, OrgConcurrentReads the documents of
	// an organization read at once (0: no bound).
	MaxUploadBytes     int64
	DocumentsPerCase   int
	OrgConcurrentReads int
	// uploading holds a place for each upload being read (MaxUploads).
	uploading chan struct{}
	// Budgets are the default model-token budgets the workers enforce, which the
	// budget routes show.
	Budgets schemas.TokenLimits
	// Hub wakes event streams when a worker in this process appends to a case's log
	// (nil: none does); EventsPoll is how often streams read the store otherwise
	// (DefaultEventsPoll when 0).
	Hub        *eventhub.Hub
	EventsPoll time.Duration
	streams    streamGate
	limits     rateLimits
	// openAPIBody is GET /v1/openapi.json's answer, built once per server.
	openAPIBody func() ([]byte, error)
	// Payments opens checkouts (nil: payments are not configured), at Prices by tier.
	// WebhookSecret verifies the provider's webhooks. PublicURL is where clients reach
	// Lexflow, which the provider sends them back to.
	Payments      payments.Provider
	Prices        payments.Prices
	WebhookSecret []byte
	PublicURL     string
	// App is what the web app served at / is told of this deployment; its TemporalUI
	// is the one origin the codec server answers in browsers.
	App AppConfig
	// Keys opens the payloads the codec server decodes. CodecTokens signs the codec
	// cookies of POST /v1/support/codec-session (nil: no codec sessions); their
	// audience must differ from the API's tokens', so that one is never the other.
	Keys        *keys.Keyring
	CodecTokens *auth.HS256
}

// maxBody bounds a request body; the longest valid message fits well inside it.
const maxBody = "256K"

// New returns the Echo server with every route of the route table.
func New(h *Handlers) *echo.Echo {
	return newServer(h, routes)
}

// logRequests logs each request and records it in h.Metrics by its route's pattern.
func (h *Handlers) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		status := c.Response().Status
		if err != nil {
			status = toProblem(err).Status
		}
		took := time.Since(start)
		h.Log.Info("Request", "method", c.Request().Method, "path", c.Request().URL.Path,
			"status", status, "ms", took.Milliseconds())
		h.Metrics.Request(c.Path(), c.Request().Method, status, took)
		return err
	}
}
