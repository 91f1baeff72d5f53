package wiring

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/corpus/dense"
	"github.com/lexflow/lexflow/internal/legislatie"
	"github.com/lexflow/lexflow/internal/lexetools"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/internal/searxng"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store/notify"
	"github.com/lexflow/lexflow/worker"
)

// StartWorker opens what the worker needs and starts it on cfg.TaskQueue, then makes
// sure the retention and court-watch schedules exist; stop undoes all of it. The legal corpus is built
// first if it is missing or older than the shipped archive; lc is the worker's, open
// until stop.
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
	deps, stopDeps, err := WorkerDeps(cfg, b, lc)
	if err != nil {
		lc.Close()
		return nil, nil, err
	}
	w := worker.New(b.Temporal, cfg.TaskQueue, deps, version)
	if err := w.Start(); err != nil {
		stopDeps()
		lc.Close()
		return nil, nil, fmt.Errorf("start worker: %w", err)
	}
	if err := worker.EnsureRetentionSchedule(ctx, b.Temporal, cfg.TaskQueue); err != nil {
		w.Stop()
		stopDeps()
		lc.Close()
		return nil, nil, err
	}
	if cfg.LegislatieURL != "" {
		if err := worker.EnsureRefreshLawSchedule(ctx, b.Temporal, cfg.TaskQueue); err != nil {
			w.Stop()
			stopDeps()
			lc.Close()
			return nil, nil, err
		}
	}
	if err := worker.EnsureCourtWatchSchedule(ctx, b.Temporal, cfg.TaskQueue, cfg.CourtWatchEvery); err != nil {
		w.Stop()
		stopDeps()
		lc.Close()
		return nil, nil, err
	}
	return func() { w.Stop(); stopDeps(); lc.Close() }, lc, nil
}

// WorkerDeps are what the worker's activities need, as cfg describes them, on b and
// the legal corpus lc: a client for each model role (the offline model, served until
// stop, for a role without an endpoint), SearXNG and the LEXE tools when cfg names
// them, and the default budgets and retention periods. The store wakes b.Hub at each
// append to an event log, so that this process's event streams send at once.
func WorkerDeps(cfg config.Config, b *Backends, lc *corpus.Store) (d worker.Deps, stop func(), err error) {
	prices, err := payments.ParsePrices(cfg.Prices, schemas.MinTier, schemas.MaxTier)
	if err != nil {
		return worker.Deps{}, nil, fmt.Errorf("LEXFLOW_PRICES: %w", err)
	}
	models, stop, err := worker.Models(cfg)
	if err != nil {
		return worker.Deps{}, nil, err
	}
	d = worker.Deps{Store: notify.Store{Store: b.Store, Hub: b.Hub}, Models: models, Prompts: b.Prompts, Corpus: lc,
		Blobs: b.Blobs, Prices: prices, Budgets: cfg.TokenLimits(), Keys: b.Keys, Retention: cfg.Retention, Now: b.Now,
		ContextTokens: cfg.AssistantContextTokens, Mail: b.Mail, DefaultLanguage: cfg.DefaultLanguage}
	d.StuckAfter = cfg.StuckAfter // system_stats counts stuck cases as support's list does
	if cfg.SearXNGURL != "" {
		d.SearXNG = searxng.New(cfg.SearXNGURL, 30*time.Second)
	}
	if cfg.LegislatieURL != "" {
		d.Legislatie = legislatie.New(cfg.LegislatieURL, 2*time.Minute)
	}
	if cfg.PortalURL != "" {
		d.Portal = portal.New(cfg.PortalURL, portal.Options{Interval: cfg.PortalInterval})
	}
	if cfg.LexeToolsURL != "" {
		lexe := lexetools.New(cfg.LexeToolsURL, 30*time.Second)
		d.Research, d.LexeSearch = lexe, lexe
	}
	if d.SearchLayers, err = SearchLayers(context.Background(), cfg, lc, models[schemas.ModelAssistant]); err != nil {
		stop()
		return worker.Deps{}, nil, err
	}
	return d, stop, nil
}

// SearchLayers are legislation search's layers as cfg switches them: the glossary and
// the corpus's learned model; the assistant's rewrite when it has an endpoint (client serves it); dense retrieval
// when an embeddings endpoint is configured, over the vectors `lexflow corpus embed`
// kept for lc and its model (none yet: no dense retrieval).
func SearchLayers(ctx context.Context, cfg config.Config, lc *corpus.Store, assistant *llm.Client) (activities.SearchLayers, error) {
	l := activities.SearchLayers{Glossary: cfg.SearchGlossary, Learned: cfg.SearchLearned}
	if cfg.SearchRewrite && !cfg.Assistant.Offline() {
		l.Rewriter = &activities.Rewriter{Model: assistant}
	}
	if cfg.Embeddings.Offline() {
		return l, nil
	}
	ix, err := dense.Open(dense.SidecarPath(cfg.CorpusDB, cfg.Embeddings.Model), cfg.Embeddings.Model, lc.Fingerprint(ctx))
	if err != nil {
		return l, fmt.Errorf("open the corpus's vectors: %w", err)
	}
	l.Dense, l.Embedder = ix, llm.NewEmbedder(EmbeddingsEndpoint(cfg))
	return l, nil
}

// EmbeddingsEndpoint is the embeddings endpoint cfg configures.
func EmbeddingsEndpoint(cfg config.Config) llm.Endpoint {
	return llm.Endpoint{BaseURL: cfg.Embeddings.BaseURL, Model: cfg.Embeddings.Model, APIKey: cfg.Embeddings.APIKey, Timeout: cfg.ModelTimeout}
}
