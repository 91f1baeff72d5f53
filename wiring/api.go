package wiring

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/schemas"
)

// ServeAPI serves the API that cfg describes, on b, on l (the listener of
// cfg.HTTPAddr) until ctx ends, then drains requests; l is closed when it returns. dev
// serves the route table's dev-only routes too. With LEXFLOW_METRICS_ADDR set, the
// metrics are served there as long as the API is.
func ServeAPI(ctx context.Context, cfg config.Config, b *Backends, log *slog.Logger, dev bool, l net.Listener) error {
	defer l.Close()
	server, err := NewAPI(ctx, cfg, b, dev, log)
	if err != nil {
		return err
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
	srv := httpserver.New(server, httpserver.API)
	srv.RegisterOnShutdown(server.EndStreams)
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

// NewAPI returns the API that cfg describes, on b; dev serves the route table's
// dev-only routes too, and takes payments in test mode when no Stripe key is set.
func NewAPI(ctx context.Context, cfg config.Config, b *Backends, dev bool, log *slog.Logger) (*api.Server, error) {
	d, err := APIDeps(ctx, cfg, b, dev, log)
	if err != nil {
		return nil, err
	}
	return api.New(d, cfg), nil
}

// APIDeps are the API's dependencies that cfg describes, on b: its token verifiers
// (the HS256 signer, and the OpenID Provider that LEXFLOW_OIDC_ISSUER names), its
// payment provider and prices, and the tracer of its requests when b traces.
func APIDeps(ctx context.Context, cfg config.Config, b *Backends, dev bool, log *slog.Logger) (api.Deps, error) {
	sign, err := Signer(cfg)
	if err != nil {
		return api.Deps{}, err
	}
	provider, webhookSecret, err := PaymentProvider(cfg, dev)
	if err != nil {
		return api.Deps{}, err
	}
	prices, err := payments.ParsePrices(cfg.Prices, schemas.MinTier, schemas.MaxTier)
	if err != nil {
		return api.Deps{}, fmt.Errorf("LEXFLOW_PRICES: %w", err)
	}
	verifiers := auth.Verifiers{HS256: sign, HS256WithOIDC: cfg.OIDCHS256 || dev}
	if cfg.OIDCIssuer != "" {
		if verifiers.OIDC, err = auth.NewOIDC(ctx, auth.OIDCOptions{Issuer: cfg.OIDCIssuer, Audience: cfg.OIDCAudience,
			RolesClaim: cfg.OIDCRolesClaim, OrgClaim: cfg.OIDCOrgClaim, OperatorOrg: cfg.OIDCOperatorOrg, Leeway: cfg.OIDCLeeway, ClientID: cfg.OIDCClientID}); err != nil {
			return api.Deps{}, err
		}
		log.Info("Accepting OIDC tokens", "issuer", cfg.OIDCIssuer, "audience", cfg.OIDCAudience)
		if ends := verifiers.OIDC.Endpoints(); cfg.OIDCClientID != "" && (ends.Authorization == "" || ends.Token == "") {
			return api.Deps{}, errors.New("LEXFLOW_OIDC_CLIENT_ID: the provider's discovery document names no authorization or token endpoint")
		}
	}
	d := api.Deps{Temporal: b.Temporal, Store: b.Store, Log: log, Auth: verifiers, Prompts: b.Prompts, Blobs: b.Blobs,
		Keys: b.Keys, Metrics: b.Metrics, Hub: b.Hub, Payments: provider, Prices: prices, WebhookSecret: webhookSecret, Dev: dev, Now: b.Now,
		Mail: b.Mail}
	if b.Tracing.Interceptor != nil {
		d.Tracer = b.Tracing.Provider.Tracer("lexflow/api")
	}
	return d, nil
}

// Signer returns the HS256 signer of LEXFLOW_JWT_SECRET, which cfg must hold (see
// DevSecrets for `lexflow dev`).
func Signer(cfg config.Config) (auth.HS256, error) {
	if err := requireSecrets(cfg, false, true); err != nil {
		return auth.HS256{}, err
	}
	return auth.HS256{Secret: []byte(cfg.JWTSecret), Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience}, nil
}

// PaymentProvider returns the payment provider and the secret its webhooks are signed
// with: Stripe when LEXFLOW_STRIPE_KEY is set; else, in dev, the test-mode provider,
// whose secret is generated once under the data directory unless one is configured;
// else none, and checkouts answer 503.
func PaymentProvider(cfg config.Config, dev bool) (payments.Provider, []byte, error) {
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
