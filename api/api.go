// Package api is Lexflow's REST API on Echo: it authenticates callers, starts and drives
// Case workflows, and reads cases and transcripts from the store.
package api

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/eventhub"
	"github.com/lexflow/lexflow/internal/health"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/mailer"
	"github.com/lexflow/lexflow/internal/metrics"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Deps are what the API needs besides its configuration: the services it calls and
// what its process opened. New takes them as they are.
type Deps struct {
	Temporal client.Client
	Store    store.Store
	Log      *slog.Logger
	// Auth verifies bearer tokens: the HS256 tokens of Auth.HS256, and with Auth.OIDC
	// the provider's. The codec cookies are HS256 tokens of another audience, and
	// under Dev POST /dev/token mints with Auth.HS256.
	Auth auth.Verifiers
	// Prompts is reloaded by POST /v1/admin/prompts/reload.
	Prompts *prompts.Library
	// Blobs serves the draft PDFs and the documents.
	Blobs blob.Store
	// Keys opens the payloads the codec server decodes.
	Keys *keys.Keyring
	// Metrics, when set, counts and times the requests and the streamed events; Tracer,
	// when set, starts a span for each request (see traceRequests).
	Metrics *metrics.Metrics
	Tracer  trace.Tracer
	// Hub wakes event streams when a worker in this process appends to a case's log;
	// nil: none does.
	Hub *eventhub.Hub
	// Payments opens checkouts (nil: payments are not configured), at Prices by
	// tier (LEXFLOW_PRICES); WebhookSecret verifies the provider's webhooks.
	Payments      payments.Provider
	Prices        payments.Prices
	WebhookSecret []byte
	// Mail sends e-mail verification codes; nil when no mail server is configured,
	// when the e-mail channel is refused.
	Mail *mailer.Sender
	// Dev serves the dev-only routes of the route table.
	Dev bool
	// Now is the clock that names the day of the per-day limits and of the budgets'
	// use; nil means time.Now.
	Now func() time.Time
	// EraseWait is how long DELETE /v1/cases/{id} waits for the erasure before it
	// answers 202 (DefaultEraseWait when zero).
	EraseWait time.Duration
}

// Server is the API: every route of the route table, on Echo.
type Server struct {
	h *handlers
	e *echo.Echo
}

// New returns the API that d and cfg describe.
func New(d Deps, cfg config.Config) *Server {
	h := &handlers{Temporal: d.Temporal, Store: d.Store, Metrics: d.Metrics, Tracer: d.Tracer, Auth: d.Auth,
		Prompts: d.Prompts, TaskQueue: cfg.TaskQueue, MaxSteps: cfg.MaxSteps, Unavailable: cfg.Unavailable(),
		Log: d.Log, Blobs: d.Blobs, UserWait: cfg.UserWait, StuckAfter: cfg.StuckAfter, TurnTimeout: cfg.TurnTimeout,
		DefaultLanguage: cfg.DefaultLanguage, ContextTokens: cfg.AssistantContextTokens,
		EraseWait: d.EraseWait, Dev: d.Dev, CasesPerDay: cfg.CasesPerDay, OrgCasesPerDay: cfg.OrgCasesPerDay,
		RequestsPerMinute: cfg.RequestsPerMinute, OrgRequestsPerMinute: cfg.OrgRequestsPerMinute,
		ToolRunsPerMinute: cfg.ToolRunsPerMinute, OrgConcurrentTurns: cfg.OrgConcurrentTurns,
		MaxUploadBytes: int64(cfg.MaxUploadMB) << 20, DocumentsPerCase: cfg.DocumentsPerCase, OrgConcurrentReads: cfg.OrgConcurrentReads,
		Budgets: cfg.TokenLimits(), Hub: d.Hub, EventsPoll: cfg.EventsPoll, Payments: d.Payments, Prices: d.Prices,
		WebhookSecret: d.WebhookSecret, PublicURL: cfg.PublicURL, CORSOrigins: cfg.CORSOrigins, Keys: d.Keys, Now: d.Now, Mail: d.Mail,
		App: AppConfig{TemporalUI: cfg.TemporalUIURL, Namespace: cfg.TemporalNamespace}}
	codecTokens := d.Auth.HS256
	codecTokens.Audience += "-codec"
	h.CodecTokens = &codecTokens
	if d.Dev {
		devTokens := d.Auth.HS256
		h.DevTokens = &devTokens
	}
	if d.Auth.OIDC != nil && cfg.OIDCClientID != "" {
		ends := d.Auth.OIDC.Endpoints()
		h.App.OIDC = &AppOIDC{Issuer: cfg.OIDCIssuer, ClientID: cfg.OIDCClientID, Audience: cfg.OIDCAudience, Scope: cfg.OIDCScope,
			RedirectURI: strings.TrimSuffix(cfg.PublicURL, "/") + "/", RolesClaim: cfg.OIDCRolesClaim, OrgClaim: cfg.OIDCOrgClaim,
			AuthorizationEndpoint: ends.Authorization, TokenEndpoint: ends.Token}
	}
	if cfg.PortalURL != "" {
		h.Portal = portal.New(cfg.PortalURL, portal.Options{Interval: cfg.PortalInterval})
	}
	return &Server{h: h, e: newServer(h, routes)}
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.e.ServeHTTP(w, r) }

// EndStreams ends the event streams being served, telling each client to reconnect:
// an http.Server's RegisterOnShutdown calls it.
func (s *Server) EndStreams() { s.h.EndStreams() }

// handlers holds the API's state; its methods serve the routes. New fills it from
// Deps and the configuration.
type handlers struct {
	Temporal client.Client
	Store    store.Store
	// Portal is the courts' portal court files are linked against; nil when none is
	// configured, and linking is refused.
	Portal  *portal.Client
	Metrics *metrics.Metrics
	Tracer  trace.Tracer
	// readiness keeps /readyz's last answer for a second.
	readiness health.Readiness
	// Auth verifies bearer tokens: auth.Verifiers (dev HS256 and OIDC), or one of them.
	Auth    auth.Verifier
	Prompts *prompts.Library
	// TaskQueue is the queue the cases this API starts run on; MaxSteps bounds their
	// tool loop.
	TaskQueue string
	MaxSteps  int
	// Unavailable are the tools this deployment cannot serve (no SearXNG, say), with
	// why: they are never selected for a turn, and GET /v1/tools lists them as
	// unavailable with the reason.
	Unavailable map[string]string
	Log         *slog.Logger
	Blobs       blob.Store
	// UserWait is how long the cases this API starts wait for a client's answer to an
	// escalation; StuckAfter how long a case may work without progress before support
	// lists it as stuck.
	UserWait   time.Duration
	StuckAfter time.Duration
	// DefaultLanguage is the language of a case, query or citation check whose client
	// chose none and whose text tells none.
	DefaultLanguage string
	// ContextTokens is the assistant model's context size, for GET
	// /v1/admin/cases/{id}/context's view of a call (0: schemas.DefaultContextTokens).
	ContextTokens int
	// TurnTimeout is the deadline of each chat turn of the cases this API starts.
	TurnTimeout time.Duration
	EraseWait   time.Duration
	Dev         bool
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
	// uploading holds a place for each upload being read (MaxUploads, TenantUploads).
	uploading uploadSlots
	// Budgets are the default model-token budgets the workers enforce, which the
	// budget routes show.
	Budgets schemas.TokenLimits
	// Hub wakes event streams (nil: nothing does); EventsPoll is how often streams
	// read the store otherwise (DefaultEventsPoll when 0).
	Hub        *eventhub.Hub
	EventsPoll time.Duration
	streams    streamGate
	// streamsOpen counts each user's open streams (MaxStreamsPerUser).
	streamsOpen streamSlots
	limits      rateLimits
	// openAPIBody is GET /v1/openapi.json's answer, built once per server.
	openAPIBody func() ([]byte, error)
	// Payments opens checkouts at Prices by tier; PublicURL is where clients reach
	// Lexflow, which the provider sends them back to.
	Payments      payments.Provider
	Prices        payments.Prices
	WebhookSecret []byte
	PublicURL     string
	// CORSOrigins are the origins whose pages may call /v1 from the browser (cors).
	CORSOrigins []string
	// App is what the web app served at / is told of this deployment; its TemporalUI
	// is the one origin the codec server answers in browsers.
	App AppConfig
	// Keys opens the payloads the codec server decodes. CodecTokens signs the codec
	// cookies of POST /v1/support/codec-session (nil: no codec sessions); their
	// audience must differ from the API's tokens', so that one is never the other.
	Keys        *keys.Keyring
	CodecTokens *auth.HS256
	// Now is the clock of the per-day limits and the budgets' day (nil: time.Now).
	Now func() time.Time
	// Mail sends e-mail verification codes; nil when no mail server is configured.
	Mail *mailer.Sender
}

// now reads h's clock.
func (h *handlers) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

// maxBody bounds a request body; the longest valid message fits well inside it.
const maxBody = "256K"

// logRequests logs each request and records it in h.Metrics by its route's pattern.
func (h *handlers) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
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
