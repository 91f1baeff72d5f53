// Package wiring builds Lexflow's processes from their configuration: the backends
// that a process's API and worker share (Open), the worker (StartWorker) and the API
// with its operations server (ServeAPI, ServeOps). cmd/lexflow runs them as `lexflow
// api`, `lexflow worker` and `lexflow dev`; cmd/lexflow-bench runs them in its own
// process to time them.
package wiring

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	tlog "go.temporal.io/sdk/log"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/eventhub"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/lexetools"
	"github.com/lexflow/lexflow/internal/metrics"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/searxng"
	"github.com/lexflow/lexflow/internal/tracing"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/backend"
	"github.com/lexflow/lexflow/store/notify"
	"github.com/lexflow/lexflow/store/sealed"
	"github.com/lexflow/lexflow/tools"
	"github.com/lexflow/lexflow/worker"
)

// dialTemporal connects to Temporal with a client whose payloads kr encrypts, whose
// metrics (the SDK's, and those workflows and activities record) go to m, and which
// traces with tr's interceptor, if it has one.
func dialTemporal(cfg config.Config, kr *keys.Keyring, m *metrics.Metrics, tr *tracing.Tracing, log *slog.Logger) (client.Client, error) {
	opts := client.Options{
		HostPort:       cfg.TemporalAddress,
		Namespace:      cfg.TemporalNamespace,
		Logger:         tlog.NewStructuredLogger(log.With("component", "temporal")),
		MetricsHandler: m.Temporal,
	}
	if tr.Interceptor != nil {
		opts.Interceptors = []interceptor.ClientInterceptor{tr.Interceptor}
	}
	c, err := client.Dial(codec.Apply(opts, kr, cfg.CompressPayloads))
	if err != nil {
		return nil, fmt.Errorf("connect to Temporal at %s: %w", cfg.TemporalAddress, err)
	}
	return c, nil
}

// Keyring returns the data keys in st, wrapped by the master key: LEXFLOW_MASTER_KEY
// (with LEXFLOW_MASTER_KEY_PREVIOUS), or the one generated once under the data
// directory.
func Keyring(cfg config.Config, st store.Keys) (*keys.Keyring, error) {
	secret := cfg.MasterKey
	if secret == "" {
		raw, err := auth.LoadOrCreateSecret(cfg.Path("master-key"))
		if err != nil {
			return nil, fmt.Errorf("master key: %w", err)
		}
		secret = string(raw)
	}
	w, err := keys.NewLocal(secret, cfg.MasterKeyPrevious...)
	if err != nil {
		return nil, fmt.Errorf("master key: %w", err)
	}
	kr := keys.NewKeyring(st, w)
	kr.TTL = cfg.KeyCacheTTL
	return kr, nil
}

// Signer returns the HS256 signer: LEXFLOW_JWT_SECRET, or the secret generated once
// under the data directory.
func Signer(cfg config.Config) (auth.HS256, error) {
	secret := []byte(cfg.JWTSecret)
	if len(secret) == 0 {
		var err error
		if secret, err = auth.LoadOrCreateSecret(cfg.Path("jwt-secret")); err != nil {
			return auth.HS256{}, fmt.Errorf("JWT secret: %w", err)
		}
	}
	return auth.HS256{Secret: secret, Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience}, nil
}

// paymentProvider returns the payment provider and the secret its webhooks are signed
// with: Stripe when LEXFLOW_STRIPE_KEY is set; else, in dev, the test-mode provider,
// whose secret is generated once under the data directory unless one is configured;
// else none, and checkouts answer 503.
func paymentProvider(cfg config.Config, dev bool) (payments.Provider, []byte, error) {
	secret := []byte(cfg.WebhookSecret)
	switch {
	case cfg.StripeKey != "":
		return &payments.Stripe{Key: cfg.StripeKey, BaseURL: cfg.StripeAPI}, secret, nil
	case dev:
		if len(secret) == 0 {
			var err error
			if secret, err = auth.LoadOrCreateSecret(cfg.Path("payments-webhook-secret")); err != nil {
				return nil, nil, fmt.Errorf("payments webhook secret: %w", err)
			}
		}
		return &payments.TestMode{Secret: secret, BaseURL: cfg.PublicURL,
			WebhookURL: "http://" + cfg.HTTPAddr + "/v1/webhooks/payments"}, secret, nil
	}
	return nil, secret, nil
}

// StartWorker opens what the worker needs and starts it; stop undoes all of it. The
// legal corpus is built first if it is missing or older than the shipped archive; lc
// is the worker's, open until stop.
func StartWorker(ctx context.Context, cfg config.Config, b *Backends, log *slog.Logger) (stop func(), lc *corpus.Store, err error) {
	version, err := worker.VersionOf(cfg.WorkerDeployment, cfg.BuildID)
	if err != nil {
		return nil, nil, err
	}
	if _, built, err := corpus.Ensure(ctx, cfg.CorpusDB); err != nil {
		return nil, nil, err
	} else if built {
		log.Info("Built the legal corpus", "db", cfg.CorpusDB)
	}
	if err := worker.RegisterSearchAttributes(ctx, b.Temporal, cfg.TemporalNamespace); err != nil {
		log.Warn("Cannot register the search attributes; register them by hand (see README)", "error", err)
	}
	lc, err = corpus.Open(cfg.CorpusDB)
	if err != nil {
		return nil, nil, err
	}
	models, stopModels, err := worker.Models(cfg)
	if err != nil {
		lc.Close()
		return nil, nil, err
	}
	deps := worker.Deps{Store: notify.Store{Store: b.Store, Hub: b.Hub}, Models: models, Prompts: b.Prompts, Corpus: lc, Blobs: b.Blobs,
		Budgets: cfg.TokenLimits(), Keys: b.Keys, Retention: cfg.Retention}
	if cfg.SearXNGURL != "" {
		deps.SearXNG = searxng.New(cfg.SearXNGURL, 30*time.Second)
	}
	if cfg.LexeToolsURL != "" {
		deps.Research = lexetools.New(cfg.LexeToolsURL, 30*time.Second)
	}
	w := worker.New(b.Temporal, cfg.TaskQueue, deps, version)
	if err := w.Start(); err != nil {
		stopModels()
		lc.Close()
		return nil, nil, fmt.Errorf("start worker: %w", err)
	}
	if err := worker.EnsureRetentionSchedule(ctx, b.Temporal, cfg.TaskQueue); err != nil {
		w.Stop()
		stopModels()
		lc.Close()
		return nil, nil, err
	}
	return func() { w.Stop(); stopModels(); lc.Close() }, lc, nil
}

// ServeAPI serves the API on l, the listener of cfg.HTTPAddr, until ctx ends, then
// drains requests; l is closed when it returns. dev serves the route table's dev-only
// routes too.
func ServeAPI(ctx context.Context, cfg config.Config, b *Backends, log *slog.Logger, dev bool, l net.Listener) error {
	defer l.Close()
	sign, err := Signer(cfg)
	if err != nil {
		return err
	}
	provider, webhookSecret, err := paymentProvider(cfg, dev)
	if err != nil {
		return err
	}
	prices, err := payments.ParsePrices(cfg.Prices, schemas.MinTier, schemas.MaxTier)
	if err != nil {
		return fmt.Errorf("LEXFLOW_PRICES: %w", err)
	}
	verifiers := auth.Verifiers{HS256: sign}
	if cfg.OIDCIssuer != "" {
		if verifiers.OIDC, err = auth.NewOIDC(ctx, auth.OIDCOptions{Issuer: cfg.OIDCIssuer, Audience: cfg.OIDCAudience,
			RolesClaim: cfg.OIDCRolesClaim, OrgClaim: cfg.OIDCOrgClaim, OperatorOrg: cfg.OIDCOperatorOrg, Leeway: cfg.OIDCLeeway}); err != nil {
			return err
		}
		log.Info("Accepting OIDC tokens", "issuer", cfg.OIDCIssuer, "audience", cfg.OIDCAudience)
	}
	h := &api.Handlers{Temporal: b.Temporal, Store: b.Store, Metrics: b.Metrics, Auth: verifiers, Prompts: b.Prompts, TaskQueue: cfg.TaskQueue,
		MaxSteps: cfg.MaxSteps, Unavailable: cfg.Unavailable(tools.NeedsSearXNG), Log: log,
		Blobs: b.Blobs, UserWait: cfg.UserWait, StuckAfter: cfg.StuckAfter, TurnTimeout: cfg.TurnTimeout, Dev: dev,
		CasesPerDay: cfg.CasesPerDay, OrgCasesPerDay: cfg.OrgCasesPerDay,
		RequestsPerMinute: cfg.RequestsPerMinute, OrgRequestsPerMinute: cfg.OrgRequestsPerMinute, OrgConcurrentTurns: cfg.OrgConcurrentTurns,
		ToolRunsPerMinute: cfg.ToolRunsPerMinute, Budgets: cfg.TokenLimits(), Hub: b.Hub, EventsPoll: cfg.EventsPoll,
		MaxUploadBytes: int64(cfg.MaxUploadMB) << 20, DocumentsPerCase: cfg.DocumentsPerCase, OrgConcurrentReads: cfg.OrgConcurrentReads,
		Payments: provider, Prices: prices, WebhookSecret: webhookSecret, PublicURL: cfg.PublicURL,
		App: api.AppConfig{TemporalUI: cfg.TemporalUIURL, Namespace: cfg.TemporalNamespace}, Keys: b.Keys}
	codecTokens := sign
	codecTokens.Audience = cfg.JWTAudience + "-codec"
	h.CodecTokens = &codecTokens
	if verifiers.OIDC != nil && cfg.OIDCClientID != "" {
		ends := verifiers.OIDC.Endpoints()
		if ends.Authorization == "" || ends.Token == "" {
			return fmt.Errorf("LEXFLOW_OIDC_CLIENT_ID: the provider's discovery document names no authorization or token endpoint")
		}
		h.App.OIDC = &api.AppOIDC{Issuer: cfg.OIDCIssuer, ClientID: cfg.OIDCClientID, Audience: cfg.OIDCAudience, Scope: cfg.OIDCScope,
			RedirectURI: strings.TrimSuffix(cfg.PublicURL, "/") + "/", RolesClaim: cfg.OIDCRolesClaim, OrgClaim: cfg.OIDCOrgClaim,
			AuthorizationEndpoint: ends.Authorization, TokenEndpoint: ends.Token}
	}
	if dev {
		h.DevTokens = &sign
	}
	if b.Tracing.Interceptor != nil {
		h.Tracer = b.Tracing.Provider.Tracer("lexflow/api")
	}
	if cfg.MetricsAddr != "" {
		// The metrics server stops with the API, however the API stops.
		opsCtx, stopOps := context.WithCancel(ctx)
		opsDone, err := ServeOps(opsCtx, cfg.MetricsAddr, metricsOps(b), log)
		if err != nil {
			stopOps()
			return fmt.Errorf("LEXFLOW_METRICS_ADDR %s: %w", cfg.MetricsAddr, err)
		}
		defer func() { stopOps(); <-opsDone }()
	}
	srv := &http.Server{Handler: api.New(h), ReadHeaderTimeout: 10 * time.Second}
	srv.RegisterOnShutdown(h.EndStreams)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Backends are what a process's API and worker run on: the store, the data keys, a
// Temporal client that encrypts with them, the system prompts and the blobs.
type Backends struct {
	// Store seals what clients wrote before it reaches the database.
	Store    store.Store
	Temporal client.Client
	Keys     *keys.Keyring
	Prompts  *prompts.Library
	Blobs    blob.Store
	// Hub wakes the API's event streams when this process's worker appends events.
	Hub *eventhub.Hub
	// Metrics is the process's registry, which its Temporal client records into;
	// Tracing its traces, which the client's interceptor adds to.
	Metrics *metrics.Metrics
	Tracing *tracing.Tracing
}

// Open connects to the store (see backend.Open) and to Temporal, and loads the
// prompts, for the process named process ("api", "worker", "dev", "bench").
func Open(ctx context.Context, cfg config.Config, process string, log *slog.Logger) (*Backends, error) {
	lib, err := prompts.Load(cfg.PromptsDir)
	if err != nil {
		return nil, err
	}
	raw, err := backend.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	kr, err := Keyring(cfg, raw)
	if err != nil {
		_ = raw.Close(context.Background())
		return nil, err
	}
	st := sealed.New(raw, kr)
	dir, err := blob.NewDir(cfg.BlobDir)
	if err != nil {
		_ = st.Close(context.Background())
		return nil, err
	}
	m, err := metrics.New()
	if err != nil {
		_ = st.Close(context.Background())
		return nil, err
	}
	service := cfg.ServiceName
	if service == "" {
		service = "lexflow-" + process
	}
	tr, err := tracing.New(ctx, cfg.OTLPEndpoint != "", service)
	if err != nil {
		_ = st.Close(context.Background())
		return nil, err
	}
	tc, err := dialTemporal(cfg, kr, m, tr, log)
	if err != nil {
		_ = st.Close(context.Background())
		_ = tr.Shutdown(context.Background())
		return nil, err
	}
	return &Backends{Store: st, Temporal: tc, Keys: kr, Prompts: lib, Blobs: blob.Sealed{Store: dir, Keys: kr},
		Hub: eventhub.New(), Metrics: m, Tracing: tr}, nil
}

// Close closes the Temporal client and the store, and sends the last spans.
func (b *Backends) Close() {
	b.Temporal.Close()
	_ = b.Store.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.Tracing.Shutdown(ctx)
}
