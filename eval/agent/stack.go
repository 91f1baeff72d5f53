package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/wiring"
	"github.com/lexflow/lexflow/worker"
)

// Org is the organization of the scenarios' clients, whose subscription covers
// their cases.
const Org = "eval"

// Stack is the dev-like stack the scenarios run on: a Temporal dev server and
// FerretDB in a temporary directory, the backends on them and the legal corpus.
// Each scenario gets a worker and an API of its own (see run), on a task queue of
// its own, so that its model exchanges are recorded apart.
type Stack struct {
	cfg     config.Config
	b       *wiring.Backends
	corpus  *corpus.Store
	signer  auth.HS256
	log     *slog.Logger
	stubs   *stubs
	cleanup []func()
}

// StartStack starts a stack configured by cfg: its model endpoints, corpus,
// prompts and limits are cfg's; its data directory, Temporal, store and secrets are
// the stack's own, in a temporary directory that Close removes. The Temporal CLI is
// cfg.TemporalCLI's.
func StartStack(ctx context.Context, cfg config.Config, log *slog.Logger) (s *Stack, err error) {
	s = &Stack{log: log}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	dir, err := os.MkdirTemp("", "lexflow-eval-")
	if err != nil {
		return nil, err
	}
	s.cleanup = append(s.cleanup, func() { os.RemoveAll(dir) })
	cfg.DataDir, cfg.BlobDir, cfg.OfflineChunkDelay = dir, filepath.Join(dir, "blobs"), 0
	cfg.MasterKey, cfg.JWTSecret, cfg.MasterKeyPrevious = "", "", nil
	if err := wiring.DevSecrets(&cfg); err != nil {
		return nil, err
	}
	cli, err := devenv.FindTemporalCLI(cfg.TemporalCLI)
	if err != nil {
		return nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	ts, err := devenv.StartTemporal(startCtx, devenv.TemporalOptions{CLI: cli, DBFile: filepath.Join(dir, "temporal.db")})
	if err != nil {
		return nil, err
	}
	s.cleanup = append(s.cleanup, ts.Stop)
	cfg.TemporalAddress = ts.Address
	ferret, err := devenv.StartFerretDB(startCtx, "127.0.0.1:0", filepath.Join(dir, "ferretdb"), log)
	if err != nil {
		return nil, err
	}
	s.cleanup = append(s.cleanup, ferret.Stop)
	cfg.Store, cfg.MongoURI, cfg.MongoDatabase = config.StoreMongoDB, ferret.URI, "lexflow"
	if s.stubs, err = startStubs(); err != nil {
		return nil, err
	}
	s.cleanup = append(s.cleanup, s.stubs.close)
	if cfg.SearXNGURL == "" {
		cfg.SearXNGURL = s.stubs.searxng
	}
	if _, _, err := corpus.Ensure(startCtx, cfg.CorpusDB); err != nil {
		return nil, err
	}
	if s.corpus, err = corpus.Open(cfg.CorpusDB); err != nil {
		return nil, err
	}
	s.cleanup = append(s.cleanup, func() { s.corpus.Close() })
	if s.b, err = wiring.Open(startCtx, cfg, "eval", log); err != nil {
		return nil, err
	}
	s.cleanup = append(s.cleanup, s.b.Close)
	if err := worker.RegisterSearchAttributes(startCtx, s.b.Temporal, cfg.TemporalNamespace); err != nil {
		return nil, err
	}
	if _, err := s.b.Store.PutSubscription(startCtx, store.Subscription{ID: store.SubscriptionID("", Org), Plan: "eval",
		Credits: map[string]int{"1": 1000, "2": 1000, "3": 1000}}); err != nil {
		return nil, err
	}
	if s.signer, err = wiring.Signer(cfg); err != nil {
		return nil, err
	}
	s.cfg = cfg
	return s, nil
}

// Close stops everything the stack started and removes its directory.
func (s *Stack) Close() {
	for i := len(s.cleanup) - 1; i >= 0; i-- {
		s.cleanup[i]()
	}
	s.cleanup = nil
}

// serve serves h on a loopback port until the returned stop is called.
func serve(h http.Handler) (url string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := httpserver.New(h, httpserver.API)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "eval: serve:", err)
		}
	}()
	return "http://" + l.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-done
	}, nil
}
