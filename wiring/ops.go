package wiring

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/health"
	"github.com/lexflow/lexflow/internal/httpserver"
)

// WorkerOps is what a worker serves on LEXFLOW_WORKER_HTTP_ADDR, since it has no API of
// its own: GET /healthz, the liveness check, 200 while the process serves; GET
// /readyz, 200 while Temporal, the store and the legal corpus answer, 503 naming the
// one that does not; and GET /metrics.
func WorkerOps(b *Backends, lc *corpus.Store, log *slog.Logger) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	var readiness health.Readiness
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		res, code := readiness.Check(r.Context(), log,
			health.Check{Name: "temporal", Ping: func(ctx context.Context) error {
				_, err := b.Temporal.CheckHealth(ctx, &client.CheckHealthRequest{})
				return err
			}},
			health.Check{Name: "store", Ping: b.Store.Ping},
			health.Check{Name: "corpus", Ping: lc.Ping})
		writeJSON(w, code, res)
	})
	mux.Handle("GET /metrics", b.Metrics.Handler())
	return mux
}

// metricsOps is what `lexflow api` serves on LEXFLOW_METRICS_ADDR: GET /metrics, apart
// from the API's own address, which the public reaches.
func metricsOps(b *Backends) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", b.Metrics.Handler())
	return mux
}

// ServeOps serves mux on addr, an address for the operator's tools (probes, Prometheus)
// rather than the public, until ctx ends; the returned channel closes once it has
// stopped.
func ServeOps(ctx context.Context, addr string, mux *http.ServeMux, log *slog.Logger) (<-chan struct{}, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := httpserver.New(mux, httpserver.Ops)
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("Operations server failed", "addr", addr, "error", err)
		}
	}()
	log.Info("Serving operations", "addr", ln.Addr().String())
	return done, nil
}

// writeJSON answers v as JSON with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
