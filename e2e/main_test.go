// Package e2e tests Lexflow whole, against real servers that the tests start: the
// Temporal dev server from the pinned CLI, embedded FerretDB, the offline model on
// loopback, a worker and the API on a loopback HTTP server.
package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/auth"
	"github.com/lexflow/lexflow/blob"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/devenv"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/prompts"
	"github.com/lexflow/lexflow/searxng"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
	"github.com/lexflow/lexflow/worker"
)

// taskQueue is the queue of the suite's in-process worker.
const taskQueue = "e2e"

// continueAsNewAfter is the history length at which the suite's dev server suggests
// continue-as-new, low enough that a case reaches it within a few turns.
const continueAsNewAfter = 60

// The suite's servers, started once by TestMain.
var (
	temporal *devenv.TemporalServer
	mongoURI string
	// corpusDB is the legal corpus, built once for the suite.
	corpusDB string
	// blobDir is the suite's blob store, where draft PDFs go.
	blobDir string
	blobs   *blob.Dir
	lc      *corpus.Store
	tc      client.Client
	st      *mongostore.Store
	apiURL  string
	lib     = mustPrompts()
	signer  = auth.HS256{Secret: []byte("e2e-secret-e2e-secret-e2e-secret"), Issuer: "lexflow-dev", Audience: "lexflow"}
	logger  = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(runHelperWorker())
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "lexflow-e2e-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	cli, err := devenv.FindTemporalCLI("bin/temporal")
	if err != nil {
		return fail(err)
	}
	uiPort, err := devenv.FreePort()
	if err != nil {
		return fail(err)
	}
	startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	temporal, err = devenv.StartTemporal(startCtx, devenv.TemporalOptions{
		CLI: cli, DBFile: filepath.Join(dir, "temporal.db"), UIPort: uiPort,
		DynamicConfig: []string{fmt.Sprintf("limit.historyCount.suggestContinueAsNew=%d", continueAsNewAfter)},
	})
	if err != nil {
		return fail(err)
	}
	defer temporal.Stop()
	ferret, err := devenv.StartFerretDB(ctx, "127.0.0.1:0", filepath.Join(dir, "ferretdb"), logger)
	if err != nil {
		return fail(err)
	}
	defer ferret.Stop()
	mongoURI = ferret.URI
	if st, err = mongostore.Open(ctx, mongoURI, "lexflow"); err != nil {
		return fail(err)
	}
	defer st.Close(ctx)
	if tc, err = client.Dial(client.Options{HostPort: temporal.Address, Logger: tlog.NewStructuredLogger(logger)}); err != nil {
		return fail(err)
	}
	defer tc.Close()

	corpusDB = filepath.Join(dir, "corpus.db")
	if _, err := corpus.Build(ctx, corpusDB); err != nil {
		return fail(err)
	}
	if lc, err = corpus.Open(corpusDB); err != nil {
		return fail(err)
	}
	defer lc.Close()
	if err := worker.RegisterSearchAttributes(ctx, tc, "default"); err != nil {
		return fail(err)
	}
	models, stopModels, err := llm.Roles(config.Config{ModelTimeout: 30 * time.Second})
	if err != nil {
		return fail(err)
	}
	defer stopModels()
	// A loopback server answers as SearXNG does, so the web search tools run for real.
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(searxngAnswer))
	}))
	defer searx.Close()
	blobDir = filepath.Join(dir, "blobs")
	if blobs, err = blob.NewDir(blobDir); err != nil {
		return fail(err)
	}
	// The suite's tokens are of organization acme, or the admins root and lawyer's own:
	// their subscriptions cover their cases.
	for _, sub := range []string{store.SubscriptionID("", "acme"), store.SubscriptionID("root", ""), store.SubscriptionID("lawyer", "")} {
		if _, err := st.PutSubscription(ctx, store.Subscription{ID: sub, Plan: "e2e",
			Credits: map[string]int{"1": 1000, "2": 1000, "3": 1000}}); err != nil {
			return fail(err)
		}
	}
	w := worker.New(tc, taskQueue, worker.Deps{Store: st, Models: models, Prompts: lib, Corpus: lc, Blobs: blobs,
		SearXNG: searxng.New(searx.URL, 10*time.Second)})
	if err := w.Start(); err != nil {
		return fail(err)
	}
	defer w.Stop()
	srv := httptest.NewServer(api.New(handlers(taskQueue)))
	defer srv.Close()
	apiURL = srv.URL
	return m.Run()
}

// handlers is the suite's API, starting cases on queue.
func handlers(queue string) *api.Handlers {
	return &api.Handlers{Temporal: tc, Store: st, Auth: signer, Prompts: lib, TaskQueue: queue, MaxSteps: 5, Log: logger,
		Blobs: blobs, UserWait: time.Hour, StuckAfter: time.Second}
}

// searxngAnswer is SearXNG's JSON answer to a search (trimmed).
const searxngAnswer = `{"query": "diritto all'oblio", "number_of_results": 0, "results": [
 {"url": "https://www.altalex.com/documents/news/2024/oblio", "title": "Diritto all'oblio: la Cassazione", "content": "La Suprema Corte ha confermato che il diritto all'oblio...", "engine": "duckduckgo", "engines": ["duckduckgo"], "score": 1.0, "category": "general"},
 {"url": "https://example.com/blog/oblio", "title": "Un blog qualunque", "content": "Opinioni", "engine": "bing", "engines": ["bing"], "score": 0.5, "category": "general"}],
 "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": []}`

func mustPrompts() *prompts.Library {
	lib, err := prompts.Load("")
	if err != nil {
		panic(err)
	}
	return lib
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "e2e setup:", err)
	return 1
}
