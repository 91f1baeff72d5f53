package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/wiring"
)

// runDev starts the whole product on one machine: the Temporal dev server with its Web
// UI, the store (embedded FerretDB unless MONGODB_URI is set; with
// LEXFLOW_STORE=firestore, the Firestore emulator unless FIRESTORE_EMULATOR_HOST is
// set), the worker with the offline model (unless endpoints are configured) and the
// API, with the secrets the environment does not give generated once into the data
// directory (wiring.DevSecrets). State persists under the data directory, so running
// it again resumes the open cases, except on the Firestore emulator it starts, which
// keeps nothing. It stops everything it started when ctx ends (Ctrl-C).
func runDev(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return err
	}
	if err := wiring.DevSecrets(&cfg); err != nil {
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
	db := cfg.Path("temporal.db")
	if cfg.Store == config.StoreFirestore && cfg.FirestoreEmulatorHost == "" {
		// The emulator keeps nothing across runs: Temporal starts afresh with it, so
		// that no workflow goes on with a case that is gone.
		db = cfg.Path("temporal-firestore.db")
		if err := os.Remove(db); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	log.Info("Starting Temporal dev server", "cli", cli, "ui", ui, "db", db)
	ts, err := devenv.StartTemporal(startCtx, devenv.TemporalOptions{
		CLI: cli, DBFile: db, Port: port, UIPort: cfg.TemporalUIPort, Output: serverLog,
		UICodecEndpoint: strings.TrimSuffix(cfg.PublicURL, "/") + "/codec", UIServer: ui,
	})
	if err != nil {
		return fmt.Errorf("%w (its log: %s)", err, cfg.Path("temporal.log"))
	}
	defer ts.Stop()

	stopStore, err := startDevStore(startCtx, &cfg, log)
	if err != nil {
		return err
	}
	defer stopStore()
	b, err := wiring.Open(startCtx, cfg, "dev", log)
	if err != nil {
		return err
	}
	defer b.Close()
	stopWorker, _, err := wiring.StartWorker(ctx, cfg, b, log)
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
  API          http://%s  (health: /healthz, /readyz)
  Temporal UI  %s/namespaces/%s/workflows
  Temporal     %s
  Store        %s
  Model        %s
Get a token:   go run ./cmd/lexflow token --sub alice --org acme --role user

%s
`, strings.TrimSuffix(cfg.PublicURL, "/"), cfg.HTTPAddr, ts.UIURL, cfg.TemporalNamespace, ts.Address, storeName(cfg), model,
		loopbackNotice)
	if cfg.TemporalUIURL == "" {
		cfg.TemporalUIURL = ts.UIURL
	}
	return wiring.ServeAPI(ctx, cfg, b, log, true, l)
}

// loopbackNotice is the banner's warning: the dev server and its Web UI listen on
// loopback only (devenv binds them to 127.0.0.1), and are open there.
const loopbackNotice = `Temporal and its Web UI listen on 127.0.0.1 only, and are open there: no
client certificate, no sign-in, write actions on. Any program or user on this
machine can read, signal, reset or terminate every case's workflows. A deployment
locks them (docs/deployment.md, "Temporal").`

// devFirestoreProject is the project `lexflow dev` uses on its emulator when
// FIRESTORE_PROJECT_ID names none.
const devFirestoreProject = "lexflow-dev"

// startDevStore starts the database `lexflow dev` runs on, unless cfg names one, and
// points cfg at it; it returns what stops it.
func startDevStore(ctx context.Context, cfg *config.Config, log *slog.Logger) (stop func(), err error) {
	switch {
	case cfg.Store == config.StoreFirestore && cfg.FirestoreEmulatorHost == "":
		_, port, err := net.SplitHostPort(cfg.DevFirestoreAddr)
		if err != nil {
			return nil, fmt.Errorf("LEXFLOW_DEV_FIRESTORE_ADDR: %w", err)
		}
		n, err := strconv.Atoi(port)
		if err != nil {
			return nil, fmt.Errorf("LEXFLOW_DEV_FIRESTORE_ADDR: %w", err)
		}
		f, err := devenv.StartFirestore(ctx, n, 0)
		if err != nil {
			return nil, err
		}
		log.Warn("The Firestore emulator keeps its data in memory: each run of lexflow dev on it starts afresh", "addr", f.Host)
		cfg.FirestoreEmulatorHost = f.Host
		if cfg.FirestoreProject == "" {
			cfg.FirestoreProject = devFirestoreProject
		}
		return f.Stop, nil
	case cfg.Store == config.StoreMongoDB && cfg.MongoURI == "":
		f, err := devenv.StartFerretDB(ctx, cfg.DevMongoAddr, cfg.Path("ferretdb"), log)
		if err != nil {
			return nil, err
		}
		cfg.MongoURI = f.URI
		return f.Stop, nil
	}
	return func() {}, nil
}

// storeName says which database cfg names, for the banner.
func storeName(cfg config.Config) string {
	if cfg.Store == config.StoreFirestore {
		if cfg.FirestoreEmulatorHost != "" {
			return "Firestore emulator at " + cfg.FirestoreEmulatorHost
		}
		return "Firestore, project " + cfg.FirestoreProject
	}
	return cfg.MongoURI
}
