// Package stack starts the real servers that Lexflow's end-to-end tests run against, once
// per test package: the Temporal dev server from the pinned CLI, embedded FerretDB, the
// offline model and a SearXNG stand-in on loopback, a worker and the API on a loopback
// HTTP server. It also holds what the suites share: HTTP helpers, helper worker
// processes, and the recorder of workflow histories for the replay test.
package stack

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/mailer/mailtest"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/internal/portal/portaltest"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/testcorpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/backend"
	"github.com/lexflow/lexflow/wiring"
)

// TaskQueue is the queue of a stack's in-process worker.
const TaskQueue = "e2e"

// ContinueAsNewAfter is the history length at which a stack's dev server suggests
// continue-as-new, low enough that a case reaches it within a few turns.
const ContinueAsNewAfter = 60

// Stack is one test package's running servers and the clients of them. Its API and
// its worker are built by package wiring from Config, as `lexflow dev` builds them:
// with the event hub between them, the limits, the metrics and the traces (sent to a
// stand-in collector).
type Stack struct {
	// Client calls the stack's API. A test that needs an API of its own (another
	// setting, another task queue) serves one with Serve or ServeQueue, and calls it
	// through the client they return.
	*Client
	Temporal *devenv.TemporalServer
	// Mail is the loopback mail server the stack's API and worker send through.
	Mail *mailtest.Server
	// Config is the configuration the stack's API and worker are built from.
	Config config.Config
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
	Store    store.Store
	Raw      store.Store
	db       database
	storeEnv []string
	Prompts  *prompts.Library
	Signer   auth.HS256
	Log      *slog.Logger
	// WebhookSecret signs the payment provider's webhooks: every API the stack serves
	// takes payments with the test-mode provider, as in `lexflow dev`, whose Pay
	// button sends the API a webhook signed with it.
	WebhookSecret []byte
	// Budgets are the default model-token budgets its worker enforces: the
	// deployment's defaults.
	Budgets schemas.TokenLimits
	// Now is the clock of the stack's API and worker (see Clock): it names the day of
	// the budgets and the per-day limits.
	Now func() time.Time
	// WebSearches counts the searches its SearXNG stand-in answered.
	WebSearches atomic.Int64
	// Portal is the courts' portal its API and worker link and watch court files on:
	// a fake speaking the portal's wire format, which tests add files and hearings to.
	Portal *portaltest.Server
	// backends are what the stack's API and worker run on, and the APIs tests serve.
	backends *wiring.Backends
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
	s = &Stack{Log: newLogger(), WebhookSecret: []byte("whsec_e2e_0123456789abcdef0123456789"),
		Now: Clock(schemas.NextUTCDay(time.Now()).Add(time.Hour))}
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
	// The deployment's defaults, then the stack's own settings: the configuration
	// read from no environment at all, so that the developer's does not leak in.
	if s.Config, err = config.From(func(string) (string, bool) { return "", false }); err != nil {
		return nil, stop, err
	}
	cfg := &s.Config
	cfg.DataDir, cfg.TemporalAddress, cfg.TaskQueue, cfg.TemporalUIURL = dir, s.Temporal.Address, TaskQueue, s.Temporal.UIURL
	cfg.JWTSecret, cfg.MasterKey, cfg.KeyCacheTTL = "e2e-secret-e2e-secret-e2e-secret", MasterKey, KeyCacheTTL
	cfg.WebhookSecret = string(s.WebhookSecret)
	cfg.BlobDir, cfg.ModelTimeout, cfg.OfflineChunkDelay = filepath.Join(dir, "blobs"), 30*time.Second, 0
	cfg.MaxSteps, cfg.UserWait, cfg.StuckAfter = 5, time.Hour, time.Second
	// The suites write their cases in English, some with no word that tells it.
	cfg.DefaultLanguage = "en"
	cfg.Retention = map[string]time.Duration{RetentionOrg: time.Nanosecond}
	// The limits are on, at the deployment's defaults, except those that the suites'
	// shared tenants (acme's users and admins, polling as they wait) would reach: the
	// tests of a limit serve an API of their own with it set low. The day's limits
	// count by the stack's clock, a day ahead, so no case of today counts.
	cfg.RequestsPerMinute, cfg.OrgRequestsPerMinute, cfg.ToolRunsPerMinute = 1_000_000, 1_000_000, 1_000_000
	cfg.OrgConcurrentTurns, cfg.OrgConcurrentReads = 1000, 1000
	s.Budgets = cfg.TokenLimits()
	// Traces go to a stand-in collector, which takes them and keeps nothing; helper
	// workers, which inherit the environment, send theirs there too.
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	undo = append(undo, collector.Close)
	cfg.OTLPEndpoint = collector.URL
	if err := os.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL); err != nil {
		return nil, stop, err
	}
	// A loopback server answers as SearXNG does, so the web search tools run for real.
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.WebSearches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(searxngAnswer))
	}))
	undo = append(undo, searx.Close)
	cfg.SearXNGURL = searx.URL
	s.Portal = portaltest.New()
	undo = append(undo, s.Portal.Close)
	cfg.PortalURL, cfg.PortalInterval = s.Portal.URL(), time.Millisecond
	// A loopback mail server with STARTTLS and AUTH takes the stack's mails: e-mail
	// notifications and verification codes. Its certificate's authority is trusted
	// through the file LEXFLOW_SMTP_CA_CERT_PATH names, as a private one would be.
	if s.Mail, err = mailtest.Listen(); err != nil {
		return nil, stop, err
	}
	undo = append(undo, func() { _ = s.Mail.Close() })
	caFile := filepath.Join(dir, "smtp-ca.pem")
	if err := os.WriteFile(caFile, s.Mail.CA, 0o600); err != nil {
		return nil, stop, err
	}
	cfg.SMTP = config.SMTP{Addr: s.Mail.Addr, From: MailFrom, User: mailtest.User, Password: mailtest.Password, CA: caFile}
	stopDB, err := s.startDatabase(ctx, dir, cfg)
	if err != nil {
		return nil, stop, err
	}
	undo = append(undo, stopDB)
	if s.CorpusDB, err = testcorpus.Path(ctx, dir); err != nil {
		return nil, stop, err
	}
	cfg.CorpusDB = s.CorpusDB

	b, err := wiring.Open(ctx, s.Config, "e2e", s.Log)
	if err != nil {
		return nil, stop, err
	}
	undo = append(undo, b.Close)
	b.Now = s.Now
	s.backends = b
	s.Store, s.TC, s.Keys, s.Prompts, s.Blobs, s.BlobDir = b.Store, b.Temporal, b.Keys, b.Prompts, b.Blobs, cfg.BlobDir
	if s.Signer, err = wiring.Signer(s.Config); err != nil {
		return nil, stop, err
	}
	// Raw is a second connection to the database, past the seal.
	if s.Raw, err = backend.Open(ctx, s.Config); err != nil {
		return nil, stop, err
	}
	undo = append(undo, func() { _ = s.Raw.Close(ctx) })
	// The suites' tokens are of organization acme, or the admins root and lawyer's own:
	// their subscriptions cover their cases.
	for _, sub := range []string{store.SubscriptionID("", "acme"), store.SubscriptionID("root", ""), store.SubscriptionID("lawyer", "")} {
		if _, err := s.Store.PutSubscription(ctx, store.Subscription{ID: sub, Plan: "e2e",
			Credits: map[string]int{"1": 1000, "2": 1000, "3": 1000}}); err != nil {
			return nil, stop, err
		}
	}
	stopWorker, lc, err := wiring.StartWorker(ctx, s.Config, b, s.Log)
	if err != nil {
		return nil, stop, err
	}
	undo = append(undo, stopWorker)
	s.Corpus = lc
	// The tests run the Retention workflow themselves: the schedule that the worker
	// made sure of is paused, so that no run of it erases a case of RetentionOrg, or
	// takes up a stalled erasure, under a test's feet.
	if err := s.TC.ScheduleClient().GetHandle(ctx, schemas.RetentionScheduleID).Pause(ctx,
		client.SchedulePauseOptions{Note: "the end-to-end tests run Retention themselves"}); err != nil {
		return nil, stop, err
	}
	srv := httptest.NewUnstartedServer(nil)
	addr := srv.Listener.Addr().String()
	cfg.HTTPAddr, cfg.PublicURL = addr, "http://"+addr
	server, err := s.newAPI(ctx, addr, nil)
	if err != nil {
		return nil, stop, err
	}
	srv.Config = httpserver.New(server, httpserver.API)
	srv.Start()
	undo = append(undo, func() { server.EndStreams(); srv.Close() })
	s.Client = &Client{APIURL: cfg.PublicURL}
	return s, stop, nil
}

// Clock returns a clock that reads start now and runs on at the real pace. The
// stack's starts at 01:00 UTC tomorrow: no day's budget or limit renews while the
// tests run, and the day a budget renews (its resumes_at) is a day away in real time,
// so that a case waiting on its budget waits for as long as a test looks at it.
func Clock(start time.Time) func() time.Time {
	offset := time.Until(start)
	return func() time.Time { return time.Now().Add(offset) }
}

// MailFrom is the sender of the stack's mails.
const MailFrom = "Lexflow <notify@lexflow.test>"

// Prices are the stack's prices by tier: LEXFLOW_PRICES's default.
var Prices = payments.Prices{1: {Amount: 4900, Currency: "eur"}, 2: {Amount: 14900, Currency: "eur"}, 3: {Amount: 39900, Currency: "eur"}}

// eraseWait is how long the stack's APIs wait for an erasure before answering 202:
// longer than production's, since an erasure waits out the key cache and a margin,
// which a loaded test machine stretches past 15 s. TestEraseAnswersWhileItRuns sets
// its own to see the 202.
const eraseWait = 2 * time.Minute

// newAPI builds an API as the stack's own is built, from the stack's configuration
// as configure changes it (nil: unchanged), to be served at addr (host:port; empty:
// the stack's address). It serves the dev-only routes, among them the test-mode
// provider's checkout pages.
func (s *Stack) newAPI(ctx context.Context, addr string, configure func(*config.Config, *api.Deps)) (*api.Server, error) {
	cfg := s.Config
	if addr != "" {
		cfg.HTTPAddr, cfg.PublicURL = addr, "http://"+addr
	}
	d, err := wiring.APIDeps(ctx, cfg, s.backends, true, s.Log)
	if err != nil {
		return nil, err
	}
	d.EraseWait = eraseWait
	if configure != nil {
		configure(&cfg, &d)
	}
	return api.New(d, cfg), nil
}

// NewAPI builds, as Serve does, an API for the test to serve itself at addr.
func (s *Stack) NewAPI(t testing.TB, addr string, configure func(*config.Config, *api.Deps)) *api.Server {
	t.Helper()
	server, err := s.newAPI(t.Context(), addr, configure)
	if err != nil {
		t.Fatal(err)
	}
	return server
}

// Serve serves, until the test ends, an API of the test's own, built as the stack's
// is (and served with the API's timeouts, as `lexflow api` serves it) from the stack's configuration and dependencies, which configure may change
// first (nil: none): a limit set low, or another event hub, say. It returns a
// client of it.
func (s *Stack) Serve(t testing.TB, configure func(*config.Config, *api.Deps)) *Client {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	server := s.NewAPI(t, srv.Listener.Addr().String(), configure)
	srv.Config = httpserver.New(server, httpserver.API)
	srv.Start()
	t.Cleanup(func() { server.EndStreams(); srv.Close() })
	return &Client{APIURL: srv.URL}
}

// ServeQueue serves, as Serve does, an API that starts cases on a queue of the
// test's own, for helper workers to serve (see StartHelperWorker), and returns a
// client of it and the queue.
func (s *Stack) ServeQueue(t testing.TB, prefix string) (*Client, string) {
	queue := fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
	return s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.TaskQueue = queue }), queue
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
