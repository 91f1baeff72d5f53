// Package stack starts the real servers that Lexflow's end-to-end tests run against, once
// per test package: the Temporal dev server from the pinned CLI, embedded FerretDB, the
// offline model and a SearXNG stand-in on loopback, a worker and the API on a loopback
// HTTP server. It also holds what the suites share: HTTP helpers, helper worker
// processes, and the recorder of workflow histories for the replay test.
package stack

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/searxng"
	"github.com/lexflow/lexflow/internal/testcorpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/backend"
	"github.com/lexflow/lexflow/store/sealed"
	"github.com/lexflow/lexflow/worker"
)

// TaskQueue is the queue of a stack's in-process worker.
const TaskQueue = "e2e"

// ContinueAsNewAfter is the history length at which a stack's dev server suggests
// continue-as-new, low enough that a case reaches it within a few turns.
const ContinueAsNewAfter = 60

// Stack is one test package's running servers and the clients of them.
type Stack struct {
	Temporal *devenv.TemporalServer
	// CorpusDB is the legal corpus's database file, Corpus the store open on it.
	CorpusDB string
	Corpus   *corpus.Store
	// BlobDir is the blob store's root, where draft PDFs go, sealed by Blobs.
	BlobDir string
	Blobs   blob.Store
	// TC is a Temporal client that encrypts payloads with Keys, as every Lexflow
	// process does; Keys holds the data keys in Store, wrapped by MasterKey.
	TC   client.Client
	Keys *keys.Keyring
	// Store seals what clients write in Raw, the database itself: FerretDB's, or with
	// LEXFLOW_STORE=firestore in the environment the Firestore emulator's. db reads
	// its documents as stored, and storeEnv is the environment that points a helper
	// worker at it.
	Store    *sealed.Store
	Raw      store.Store
	db       database
	storeEnv []string
	Prompts  *prompts.Library
	Signer   auth.HS256
	Log      *slog.Logger
	// APIURL is the API that the HTTP helpers call; UseQueue points it at another.
	APIURL string
	// Payments is the test-mode payment provider of every API the stack serves, as in
	// `lexflow dev`: its Pay button sends the main API a webhook signed with
	// WebhookSecret.
	Payments      *payments.TestMode
	WebhookSecret []byte
	// Budgets are the default model-token budgets its worker enforces: the
	// deployment's defaults.
	Budgets schemas.TokenLimits
	// WebSearches counts the searches its SearXNG stand-in answered.
	WebSearches atomic.Int64
}

// Main runs a test package's tests against a stack that it starts first and stops
// after; s receives it. In a helper worker process (see StartHelperWorker) it runs the
// worker instead of the tests.
func Main(m *testing.M, s **Stack) int {
	if os.Getenv(helperEnv) != "" {
		return runHelperWorker()
	}
	stk, stop, err := start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e setup:", err)
		return 1
	}
	defer stop()
	*s = stk
	return m.Run()
}

// newLogger logs warnings and errors to stderr.
func newLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// searxngAnswer is SearXNG's JSON answer to a search (trimmed).
const searxngAnswer = `{"query": "diritto all'oblio", "number_of_results": 0, "results": [
 {"url": "https://www.altalex.com/documents/news/2024/oblio", "title": "Diritto all'oblio: la Cassazione", "content": "La Suprema Corte ha confermato che il diritto all'oblio...", "engine": "duckduckgo", "engines": ["duckduckgo"], "score": 1.0, "category": "general"},
 {"url": "https://example.com/blog/oblio", "title": "Un blog qualunque", "content": "Opinioni", "engine": "bing", "engines": ["bing"], "score": 0.5, "category": "general"}],
 "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": []}`

// KeyCacheTTL is how long the stack's processes keep an unwrapped data key: an
// erasure waits that long after destroying a key.
const KeyCacheTTL = time.Second

// RetentionOrg is the organization whose closed cases the stack's worker erases by
// retention as soon as the Retention workflow runs: its retention period is a
// nanosecond.
const RetentionOrg = "expiring"

// MasterKey is the master key secret of the stack and its helper workers.
const MasterKey = "e2e-master-key-e2e-master-key-e2e-master-key"

// start starts the servers and returns the stack and what stops them.
func start() (s *Stack, stop func(), err error) {
	var undo []func()
	stop = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	defer func() {
		if err != nil {
			stop()
		}
	}()
	ctx := context.Background()
	s = &Stack{
		Signer: auth.HS256{Secret: []byte("e2e-secret-e2e-secret-e2e-secret"), Issuer: "lexflow-dev", Audience: "lexflow"},
		Log:    newLogger(),
	}
	if s.Prompts, err = prompts.Load(""); err != nil {
		return nil, stop, err
	}
	dir, err := os.MkdirTemp("", "lexflow-e2e-")
	if err != nil {
		return nil, stop, err
	}
	undo = append(undo, func() { os.RemoveAll(dir) })
	cli, err := devenv.FindTemporalCLI("bin/temporal")
	if err != nil {
		return nil, stop, err
	}
	uiPort, err := childproc.FreePort()
	if err != nil {
		return nil, stop, err
	}
	startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	s.Temporal, err = devenv.StartTemporal(startCtx, devenv.TemporalOptions{
		CLI: cli, DBFile: filepath.Join(dir, "temporal.db"), UIPort: uiPort,
		DynamicConfig: []string{fmt.Sprintf("limit.historyCount.suggestContinueAsNew=%d", ContinueAsNewAfter)},
	})
	if err != nil {
		return nil, stop, err
	}
	undo = append(undo, s.Temporal.Stop)
	dbConfig, stopDB, err := s.startDatabase(ctx, dir)
	if err != nil {
		return nil, stop, err
	}
	undo = append(undo, stopDB)
	if s.Raw, err = backend.Open(ctx, dbConfig); err != nil {
		return nil, stop, err
	}
	undo = append(undo, func() { _ = s.Raw.Close(ctx) })
	master, err := keys.NewLocal(MasterKey)
	if err != nil {
		return nil, stop, err
	}
	s.Keys = keys.NewKeyring(s.Raw, master)
	s.Keys.TTL = KeyCacheTTL
	s.Store = sealed.New(s.Raw, s.Keys)
	if s.TC, err = client.Dial(codec.Apply(client.Options{HostPort: s.Temporal.Address, Logger: tlog.NewStructuredLogger(s.Log)}, s.Keys, true)); err != nil {
		return nil, stop, err
	}
	undo = append(undo, s.TC.Close)
	if s.CorpusDB, err = testcorpus.Path(ctx, dir); err != nil {
		return nil, stop, err
	}
	if s.Corpus, err = corpus.Open(s.CorpusDB); err != nil {
		return nil, stop, err
	}
	undo = append(undo, func() { s.Corpus.Close() })
	if err := worker.RegisterSearchAttributes(ctx, s.TC, "default"); err != nil {
		return nil, stop, err
	}
	models, stopModels, err := worker.Models(config.Config{ModelTimeout: 30 * time.Second})
	if err != nil {
		return nil, stop, err
	}
	// The worker enforces the deployment's default budgets, as `lexflow dev` does.
	defaults, err := config.FromEnv()
	if err != nil {
		return nil, stop, err
	}
	s.Budgets = defaults.TokenLimits()
	undo = append(undo, stopModels)
	// A loopback server answers as SearXNG does, so the web search tools run for real.
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.WebSearches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(searxngAnswer))
	}))
	undo = append(undo, searx.Close)
	s.BlobDir = filepath.Join(dir, "blobs")
	blobDir, err := blob.NewDir(s.BlobDir)
	if err != nil {
		return nil, stop, err
	}
	s.Blobs = blob.Sealed{Store: blobDir, Keys: s.Keys}
	// The suites' tokens are of organization acme, or the admins root and lawyer's own:
	// their subscriptions cover their cases.
	for _, sub := range []string{store.SubscriptionID("", "acme"), store.SubscriptionID("root", ""), store.SubscriptionID("lawyer", "")} {
		if _, err := s.Store.PutSubscription(ctx, store.Subscription{ID: sub, Plan: "e2e",
			Credits: map[string]int{"1": 1000, "2": 1000, "3": 1000}}); err != nil {
			return nil, stop, err
		}
	}
	w := worker.New(s.TC, TaskQueue, worker.Deps{Store: s.Store, Models: models, Prompts: s.Prompts, Corpus: s.Corpus,
		Blobs: s.Blobs, SearXNG: searxng.New(searx.URL, 10*time.Second),
		Budgets: s.Budgets, Keys: s.Keys, Retention: map[string]time.Duration{RetentionOrg: time.Nanosecond}}, worker.Version{})
	if err := w.Start(); err != nil {
		return nil, stop, err
	}
	undo = append(undo, w.Stop)
	srv := httptest.NewUnstartedServer(nil)
	s.APIURL = "http://" + srv.Listener.Addr().String()
	s.WebhookSecret = []byte("whsec_e2e_0123456789abcdef0123456789")
	s.Payments = &payments.TestMode{Secret: s.WebhookSecret, BaseURL: s.APIURL, WebhookURL: s.APIURL + "/v1/webhooks/payments"}
	srv.Config.Handler = api.New(s.Handlers(TaskQueue))
	srv.Start()
	undo = append(undo, srv.Close)
	return s, stop, nil
}

// Prices are the stack's prices by tier.
var Prices = payments.Prices{1: {Amount: 4900, Currency: "eur"}, 2: {Amount: 14900, Currency: "eur"}, 3: {Amount: 39900, Currency: "eur"}}

// codecTokens signs the stack's codec cookies: the stack's secret, another audience.
var codecTokens = auth.HS256{Secret: []byte("e2e-secret-e2e-secret-e2e-secret"), Issuer: "lexflow-dev", Audience: "lexflow-codec"}

// Handlers is the stack's API, starting cases on queue. It serves the dev-only routes,
// among them the test-mode provider's checkout pages.
func (s *Stack) Handlers(queue string) *api.Handlers {
	return &api.Handlers{Temporal: s.TC, Store: s.Store, Auth: s.Signer, Prompts: s.Prompts, TaskQueue: queue, MaxSteps: 5,
		Log: s.Log, Blobs: s.Blobs, UserWait: time.Hour, StuckAfter: time.Second, Dev: true,
		Payments: s.Payments, Prices: Prices, WebhookSecret: s.WebhookSecret, PublicURL: s.APIURL, Budgets: s.Budgets,
		DevTokens: &s.Signer, Keys: s.Keys, CodecTokens: &codecTokens,
		App: api.AppConfig{TemporalUI: s.Temporal.UIURL, Namespace: "default"}}
}

// UseQueue points the stack's HTTP helpers, until the test ends, at an API of its own
// that starts cases on a queue of the test's own, served by helper workers.
func (s *Stack) UseQueue(t *testing.T, prefix string) string {
	queue := fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
	s.UseAPI(t, s.Handlers(queue))
	return queue
}

// UseAPI points the stack's HTTP helpers, until the test ends, at an API of its own
// served by h: the stack's handlers with a setting changed, say.
func (s *Stack) UseAPI(t *testing.T, h *api.Handlers) {
	srv := httptest.NewServer(api.New(h))
	saved := s.APIURL
	s.APIURL = srv.URL
	t.Cleanup(func() { s.APIURL = saved; srv.Close() })
}

// Mint signs a token for id, valid for an hour.
func (s *Stack) Mint(t testing.TB, id auth.Identity) string {
	t.Helper()
	tok, err := s.Signer.Mint(id, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// Token mints a token for a user of organization acme.
func (s *Stack) Token(t testing.TB, sub string) string {
	return s.Mint(t, auth.Identity{Subject: sub, Org: "acme", Roles: []string{schemas.RoleUser}})
}
