package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/devenv"
)

// runDev starts the whole product on one machine: the Temporal dev server with its Web
// UI, embedded FerretDB (unless MONGODB_URI is set), the worker with the offline model
// (unless endpoints are configured) and the API. State persists under the data
// directory, so running it again resumes the open cases. It stops everything it started
// when ctx ends (Ctrl-C).
func runDev(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return err
	}
	l, err := listenAPI(cfg)
	if err != nil {
		return err
	}
	defer l.Close()
	cli, err := devenv.FindTemporalCLI(cfg.TemporalCLI)
	if err != nil {
		return err
	}
	port, err := cfg.TemporalPort()
	if err != nil {
		return err
	}
	serverLog, err := os.OpenFile(cfg.Path("temporal.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer serverLog.Close()
	startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	ui, err := devenv.FindTemporalUI(cfg.TemporalUIServer)
	if err != nil {
		log.Warn("The Web UI will not send the codec session: staff tick \"Include cross-origin credentials\" in its codec settings", "error", err)
	}
	log.Info("Starting Temporal dev server", "cli", cli, "ui", ui, "db", cfg.Path("temporal.db"))
	ts, err := devenv.StartTemporal(startCtx, devenv.TemporalOptions{
		CLI: cli, DBFile: cfg.Path("temporal.db"), Port: port, UIPort: cfg.TemporalUIPort, Output: serverLog,
		UICodecEndpoint: strings.TrimSuffix(cfg.PublicURL, "/") + "/codec", UIServer: ui,
	})
	if err != nil {
		return fmt.Errorf("%w (its log: %s)", err, cfg.Path("temporal.log"))
	}
	defer ts.Stop()

	uri := cfg.MongoURI
	if uri == "" {
		f, err := devenv.StartFerretDB(ctx, cfg.DevMongoAddr, cfg.Path("ferretdb"), log)
		if err != nil {
			return err
		}
		defer f.Stop()
		uri = f.URI
	}
	b, err := openBackends(startCtx, cfg, uri, log)
	if err != nil {
		return err
	}
	defer b.close()
	stopWorker, err := startWorker(ctx, cfg, b, log)
	if err != nil {
		return err
	}
	defer stopWorker()

	model := "offline model"
	if !cfg.Assistant.Offline() {
		model = cfg.Assistant.BaseURL
	}
	fmt.Fprintf(os.Stderr, `
Lexflow is running. Ctrl-C stops everything.
  Web app      %s/  (sign in with any name: this is dev mode)
  API          http://%s  (health: /healthz)
  Temporal UI  %s/namespaces/%s/workflows
  Temporal     %s
  MongoDB      %s
  Model        %s
Get a token:   go run ./cmd/lexflow token --sub alice --org acme --role user

`, strings.TrimSuffix(cfg.PublicURL, "/"), cfg.HTTPAddr, ts.UIURL, cfg.TemporalNamespace, ts.Address, uri, model)
	if cfg.TemporalUIURL == "" {
		cfg.TemporalUIURL = ts.UIURL
	}
	return serveAPI(ctx, cfg, b, log, true, l)
}
