// Package wiring builds Lexflow's processes from their configuration: the backends
// that a process's API and worker share (Open), the API (NewAPI, ServeAPI) and the
// worker (StartWorker, WorkerDeps). cmd/lexflow runs them as `lexflow api`, `lexflow
// worker` and `lexflow dev`, cmd/lexflow-bench in its own process to time them, and
// the end-to-end tests build theirs through it too, so that they run the product's
// wiring: the event hub, the limits, the metrics and the traces.
package wiring

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	tlog "go.temporal.io/sdk/log"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/eventhub"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/mailer"
	"github.com/lexflow/lexflow/internal/metrics"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/temporalauth"
	"github.com/lexflow/lexflow/internal/tracing"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/backend"
	"github.com/lexflow/lexflow/store/sealed"
)

// Backends are what a process's API and worker run on: the store, the data keys, a
// Temporal client that encrypts with them, the system prompts and the blobs.
type Backends struct {
	// Store seals what clients wrote before it reaches the database.
	Store    store.Store
	Temporal client.Client
	Keys     *keys.Keyring
	Prompts  *prompts.Library
	// Blobs seals what it keeps (blob.Sealed) in the store LEXFLOW_BLOB names;
	// closeBlobs releases that store.
	Blobs      blob.Store
	closeBlobs func() error
	// Hub wakes the API's event streams when this process's worker appends events.
	Hub *eventhub.Hub
	// Metrics is the process's registry, which its Temporal client records into;
	// Tracing its traces, which the client's interceptor adds to.
	Metrics *metrics.Metrics
	Tracing *tracing.Tracing
	// Mail is the mail server that notifications and verification codes go through;
	// nil when none is configured.
	Mail *mailer.Sender
	// Now is the clock that names the day of the budgets and the per-day limits, in
	// the API and in the worker's meter; nil means time.Now.
	Now func() time.Time
}

// Open connects to the store (see backend.Open) and to Temporal, and loads the
// prompts, for the process named process ("api", "worker", "dev", "bench"): the
// traces' service is lexflow-<process> unless OTEL_SERVICE_NAME names one.
func Open(ctx context.Context, cfg config.Config, process string, log *slog.Logger) (*Backends, error) {
	lib, err := prompts.Load(cfg.PromptsDir)
	if err != nil {
		return nil, err
	}
	mail, err := Mailer(cfg)
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
	blobs, closeBlobs, err := Blobs(ctx, cfg)
	if err != nil {
		_ = st.Close(context.Background())
		return nil, err
	}
	m, err := metrics.New()
	if err != nil {
		_ = closeBlobs()
		_ = st.Close(context.Background())
		return nil, err
	}
	service := cfg.ServiceName
	if service == "" {
		service = "lexflow-" + process
	}
	tr, err := tracing.New(ctx, cfg.OTLPEndpoint != "", service)
	if err != nil {
		_ = closeBlobs()
		_ = st.Close(context.Background())
		return nil, err
	}
	tc, err := dialTemporal(cfg, kr, m, tr, log)
	if err != nil {
		_ = closeBlobs()
		_ = st.Close(context.Background())
		_ = tr.Shutdown(context.Background())
		return nil, err
	}
	return &Backends{Store: st, Temporal: tc, Keys: kr, Prompts: lib, Blobs: blob.Sealed{Store: blobs, Keys: kr}, closeBlobs: closeBlobs,
		Hub: eventhub.New(), Metrics: m, Tracing: tr, Mail: mail}, nil
}

// Close closes the Temporal client, the store and the blob store, and sends the last
// spans.
func (b *Backends) Close() {
	b.Temporal.Close()
	_ = b.Store.Close(context.Background())
	_ = b.closeBlobs()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.Tracing.Shutdown(ctx)
}

// dialTemporal connects to Temporal with a client whose payloads kr encrypts, whose
// metrics (the SDK's, and those workflows and activities record) go to m, which
// traces with tr's interceptor, if it has one, and which presents the certificate and
// the access tokens cfg.TemporalAuth names.
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
	opts, err := temporalauth.Apply(opts, cfg.TemporalAuth)
	if err != nil {
		return nil, err
	}
	c, err := client.Dial(codec.Apply(opts, kr, cfg.CompressPayloads))
	if err != nil {
		return nil, fmt.Errorf("connect to Temporal at %s: %w", cfg.TemporalAddress, err)
	}
	return c, nil
}

// Keyring returns the data keys in st, wrapped by the master key
// LEXFLOW_MASTER_KEY (with LEXFLOW_MASTER_KEY_PREVIOUS), which cfg must hold (see
// DevSecrets for `lexflow dev`).
func Keyring(cfg config.Config, st store.Keys) (*keys.Keyring, error) {
	if err := requireSecrets(cfg, true, false); err != nil {
		return nil, err
	}
	w, err := keys.NewLocal(cfg.MasterKey, cfg.MasterKeyPrevious...)
	if err != nil {
		return nil, fmt.Errorf("master key: %w", err)
	}
	kr := keys.NewKeyring(st, w)
	kr.TTL = cfg.KeyCacheTTL
	return kr, nil
}
