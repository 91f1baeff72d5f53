package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
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
	"github.com/lexflow/lexflow/llm/offline"
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

// keyring returns the data keys in st, wrapped by the master key: LEXFLOW_MASTER_KEY
// (with LEXFLOW_MASTER_KEY_PREVIOUS), or the one generated once under the data
// directory.
func keyring(cfg config.Config, st store.Keys) (*keys.Keyring, error) {
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

// signer returns the HS256 signer: LEXFLOW_JWT_SECRET, or the secret generated once
// under the data directory.
func signer(cfg config.Config) (auth.HS256, error) {
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

// startWorker opens what the worker needs and starts it; stop undoes all of it. The
// legal corpus is built first if it is missing or older than the shipped archive; lc
// is the worker's, open until stop.
func startWorker(ctx context.Context, cfg config.Config, b *backends, log *slog.Logger) (stop func(), lc *corpus.Store, err error) {
	version, err := worker.VersionOf(cfg.WorkerDeployment, cfg.BuildID)
	if err != nil {
		return nil, nil, err
	}
	if _, built, err := corpus.Ensure(ctx, cfg.CorpusDB); err != nil {
		return nil, nil, err
	} else if built {
		log.Info("Built the legal corpus", "db", cfg.CorpusDB)
	}
	if err := worker.RegisterSearchAttributes(ctx, b.tc, cfg.TemporalNamespace); err != nil {
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
	deps := worker.Deps{Store: notify.Store{Store: b.st, Hub: b.hub}, Models: models, Prompts: b.lib, Corpus: lc, Blobs: b.blobs,
		Budgets: cfg.TokenLimits(), Keys: b.keys, Retention: cfg.Retention}
	if cfg.SearXNGURL != "" {
		deps.SearXNG = searxng.New(cfg.SearXNGURL, 30*time.Second)
	}
	if cfg.LexeToolsURL != "" {
		deps.Research = lexetools.New(cfg.LexeToolsURL, 30*time.Second)
	}
	w := worker.New(b.tc, cfg.TaskQueue, deps, version)
	if err := w.Start(); err != nil {
		stopModels()
		lc.Close()
		return nil, nil, fmt.Errorf("start worker: %w", err)
	}
	if err := worker.EnsureRetentionSchedule(ctx, b.tc, cfg.TaskQueue); err != nil {
		w.Stop()
		stopModels()
		lc.Close()
		return nil, nil, err
	}
	return func() { w.Stop(); stopModels(); lc.Close() }, lc, nil
}

// serveAPI serves the API on l, the listener of cfg.HTTPAddr, until ctx ends, then
// drains requests; l is closed when it returns. dev serves the route table's dev-only
// routes too.
func serveAPI(ctx context.Context, cfg config.Config, b *backends, log *slog.Logger, dev bool, l net.Listener) error {
	defer l.Close()
	sign, err := signer(cfg)
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
	h := &api.Handlers{Temporal: b.tc, Store: b.st, Metrics: b.metrics, Auth: verifiers, Prompts: b.lib, TaskQueue: cfg.TaskQueue,
		MaxSteps: cfg.MaxSteps, Unavailable: cfg.Unavailable(tools.NeedsSearXNG), Log: log,
		Blobs: b.blobs, UserWait: cfg.UserWait, StuckAfter: cfg.StuckAfter, TurnTimeout: cfg.TurnTimeout, Dev: dev,
		CasesPerDay: cfg.CasesPerDay, OrgCasesPerDay: cfg.OrgCasesPerDay,
		RequestsPerMinute: cfg.RequestsPerMinute, OrgRequestsPerMinute: cfg.OrgRequestsPerMinute, OrgConcurrentTurns: cfg.OrgConcurrentTurns,
		ToolRunsPerMinute: cfg.ToolRunsPerMinute, Budgets: cfg.TokenLimits(), Hub: b.hub, EventsPoll: cfg.EventsPoll,
		MaxUploadBytes: int64(cfg.MaxUploadMB) << 20, DocumentsPerCase: cfg.DocumentsPerCase, OrgConcurrentReads: cfg.OrgConcurrentReads,
		Payments: provider, Prices: prices, WebhookSecret: webhookSecret, PublicURL: cfg.PublicURL,
		App: api.AppConfig{TemporalUI: cfg.TemporalUIURL, Namespace: cfg.TemporalNamespace}, Keys: b.keys}
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
	if b.tracing.Interceptor != nil {
		h.Tracer = b.tracing.Provider.Tracer("lexflow/api")
	}
	if cfg.MetricsAddr != "" {
		// The metrics server stops with the API, however the API stops.
		opsCtx, stopOps := context.WithCancel(ctx)
		opsDone, err := serveOps(opsCtx, cfg.MetricsAddr, metricsOps(b), log)
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

// backends are what the API and the worker run on: the store, the data keys, a
// Temporal client that encrypts with them, and the system prompts.
type backends struct {
	// st seals what clients wrote before it reaches the database.
	st    store.Store
	tc    client.Client
	keys  *keys.Keyring
	lib   *prompts.Library
	blobs blob.Store
	// hub wakes the API's event streams when this process's worker appends events.
	hub *eventhub.Hub
	// metrics is the process's registry, which its Temporal client records into;
	// tracing its traces, which the client's interceptor adds to.
	metrics *metrics.Metrics
	tracing *tracing.Tracing
}

// openBackends connects to the store (see backend.Open) and to Temporal, and loads the
// prompts, for the process named process ("api", "worker", "dev").
func openBackends(ctx context.Context, cfg config.Config, process string, log *slog.Logger) (*backends, error) {
	lib, err := prompts.Load(cfg.PromptsDir)
	if err != nil {
		return nil, err
	}
	raw, err := backend.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	kr, err := keyring(cfg, raw)
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
	blobs := blob.Sealed{Store: dir, Keys: kr}
	return &backends{st: st, tc: tc, keys: kr, lib: lib, blobs: blobs, hub: eventhub.New(), metrics: m, tracing: tr}, nil
}

func (b *backends) close() {
	b.tc.Close()
	_ = b.st.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.tracing.Shutdown(ctx) // sends the last spans
}

func runAPI(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	l, err := listenAPI(cfg)
	if err != nil {
		return err
	}
	defer l.Close()
	b, err := openBackends(ctx, cfg, "api", log)
	if err != nil {
		return err
	}
	defer b.close()
	log.Info("API listening", "addr", cfg.HTTPAddr)
	return serveAPI(ctx, cfg, b, log, false, l)
}

// listenAPI takes the API's address before anything else starts, so that a port in
// use fails at once, and no other process takes it while the rest starts.
func listenAPI(cfg config.Config) (net.Listener, error) {
	l, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return nil, fmt.Errorf("API: %w", err)
	}
	return l, nil
}

func runWorker(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	b, err := openBackends(ctx, cfg, "worker", log)
	if err != nil {
		return err
	}
	defer b.close()
	stop, lc, err := startWorker(ctx, cfg, b, log)
	if err != nil {
		return err
	}
	defer stop()
	if cfg.WorkerHTTPAddr != "" {
		opsDone, err := serveOps(ctx, cfg.WorkerHTTPAddr, workerOps(b, lc, log), log)
		if err != nil {
			return fmt.Errorf("LEXFLOW_WORKER_HTTP_ADDR %s: %w", cfg.WorkerHTTPAddr, err)
		}
		defer func() { <-opsDone }() // before the backends close
	}
	log.Info("Worker running", "task_queue", cfg.TaskQueue, "temporal", cfg.TemporalAddress)
	<-ctx.Done()
	return nil
}

func runToken(cfg config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	sub := fs.String("sub", "", "subject: the user's ID (required)")
	org := fs.String("org", "", "organization")
	roles := fs.String("role", "user", "comma-separated roles: "+strings.Join(schemas.TokenRoles, ", "))
	ttl := fs.Duration("ttl", 24*time.Hour, "how long the token is valid")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sign, err := signer(cfg)
	if err != nil {
		return err
	}
	token, err := sign.Mint(auth.Identity{Subject: *sub, Org: *org, Roles: strings.Split(*roles, ",")}, *ttl)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, token)
	return err
}

func runModel(ctx context.Context, cfg config.Config, args []string, log *slog.Logger) error {
	fs := flag.NewFlagSet("model", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "listen address")
	delay := fs.Duration("chunk-delay", cfg.OfflineChunkDelay, "pause between the chunks of a streamed answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	srv, err := offline.StartWith(*addr, offline.Options{ChunkDelay: *delay})
	if err != nil {
		return err
	}
	log.Info("Offline model serving", "base_url", srv.BaseURL)
	<-ctx.Done()
	return srv.Stop(context.Background())
}

// runCorpus builds the legal corpus database from the archive shipped in the binary and
// prints the rows of each source.
func runCorpus(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	if len(args) != 1 || args[0] != "load" {
		return errors.New("usage: lexflow corpus load")
	}
	start := time.Now()
	counts, err := corpus.Build(ctx, cfg.CorpusDB)
	if err != nil {
		return err
	}
	printCounts(out, counts)
	_, err = fmt.Fprintf(out, "built %s in %s\n", cfg.CorpusDB, time.Since(start).Round(time.Millisecond))
	return err
}

// printCounts writes the rows of each source as a table.
func printCounts(out io.Writer, counts corpus.Counts) {
	fmt.Fprintf(out, "%-26s %9s %10s\n", "source", "articles", "decisions")
	for _, src := range []string{corpus.SourceGDPR, corpus.SourceNormattiva, corpus.SourceROCodes, corpus.SourceCassazione, corpus.SourceRejust} {
		fmt.Fprintf(out, "%-26s %9d %10d\n", src, counts[src].Articles, counts[src].Decisions)
	}
}
