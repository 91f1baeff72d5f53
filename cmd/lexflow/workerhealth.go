package main

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
)

// serveWorkerHealth serves a worker's health on addr, since it has no API of its own:
// GET /healthz, the liveness check, 200 while the process serves; GET /readyz, 200
// while Temporal, the store and the legal corpus answer, 503 naming the one that does
// not. It stops when ctx ends; the returned channel closes once it has.
func serveWorkerHealth(ctx context.Context, addr string, b *backends, lc *corpus.Store, log *slog.Logger) (<-chan struct{}, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
		defer cancel()
		res, code := map[string]string{"status": "ok", "temporal": "ok", "store": "ok", "corpus": "ok"}, http.StatusOK
		down := func(service string, err error) {
			log.Warn("Readiness check failed", "service", service, "error", err)
			res[service], res["status"], code = "unavailable", "unavailable", http.StatusServiceUnavailable
		}
		if _, err := b.tc.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
			down("temporal", err)
		}
		if err := b.st.Ping(ctx); err != nil {
			down("store", err)
		}
		if err := lc.Ping(ctx); err != nil {
			down("corpus", err)
		}
		writeJSON(w, code, res)
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
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
			log.Error("Worker health server failed", "error", err)
		}
	}()
	log.Info("Worker health", "addr", ln.Addr().String())
	return done, nil
}

// writeJSON answers v as JSON with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
