package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/wiring"
)

// loadOptions are `lexflow-bench load`'s flags.
type loadOptions struct {
	cases, turns, orgs int
	stream             bool
	chaos              bool
	kills, apiRestarts int
	killEvery, timeout time.Duration
	wrk                time.Duration
	profile            string
	cpuProfile         string
	lexflow            string
}

func parseLoadOptions(args []string) (loadOptions, error) {
	var o loadOptions
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.IntVar(&o.cases, "cases", 200, "cases, each with a client of its own, all at once")
	fs.IntVar(&o.turns, "turns", 5, "turns per case; the last asks for a draft PDF")
	fs.IntVar(&o.orgs, "orgs", 20, "organizations the cases are spread over")
	fs.BoolVar(&o.stream, "stream", false, "send the turns with Accept: text/event-stream")
	fs.BoolVar(&o.chaos, "chaos", false, "kill the worker with SIGKILL and restart the API while the load runs")
	fs.IntVar(&o.kills, "kills", 50, "with --chaos: how many times the worker is killed")
	fs.IntVar(&o.apiRestarts, "api-restarts", 3, "with --chaos: how many times the API is killed and started again")
	fs.DurationVar(&o.killEvery, "kill-every", 2*time.Second, "with --chaos: the mean time between two kills")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Minute, "the most the whole run may take")
	fs.DurationVar(&o.wrk, "wrk", 10*time.Second, "after the load, how long wrk loads each read route (0: not at all)")
	fs.StringVar(&o.profile, "profile", "deploy/bench.env", "the environment file that lifts the abuse limits (the bench profile)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write this process's CPU profile (the load's clients and the embedded FerretDB) to this file")
	fs.StringVar(&o.lexflow, "lexflow", "", "the lexflow binary the API and the worker run from (default: one built from this module)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case o.cases < 1 || o.turns < 1:
		return o, errors.New("load: --cases and --turns must be at least 1")
	case o.orgs < 1 || o.orgs > o.cases:
		return o, errors.New("load: --orgs must be between 1 and --cases")
	case o.kills < 0 || o.apiRestarts < 0 || o.apiRestarts > o.kills:
		return o, errors.New("load: --kills and --api-restarts must not be negative, and the API restarts no more often than the worker")
	case o.killEvery <= 0 || o.timeout <= 0 || o.wrk < 0:
		return o, errors.New("load: --kill-every and --timeout must be positive, --wrk not negative")
	}
	if !o.chaos {
		o.kills, o.apiRestarts = 0, 0
	}
	return o, nil
}

// caseRun is what one client of the load did: its case, the messages it sent (each
// answered), each turn's latency, the tool calls its turns answered as failed, and why
// it stopped early, if it did.
type caseRun struct {
	caseID       string
	open         time.Duration
	messages     []string
	latency      []time.Duration
	toolFailures []string
	// first and last are when its first turn was sent and its last answered.
	first, last time.Time
	err         error
}

// loadMessage is turn k's message of case i: a question for get_case_details, and on
// the last turn a draft. Each names its case and turn, so the audit can find it.
func loadMessage(i, k, turns int) string {
	if k == turns {
		return fmt.Sprintf("draft: Load_letter\n# Letter\n\nCase %d, turn %d: the letter the load test asked for.", i, k)
	}
	return fmt.Sprintf("Case %d, turn %d: show me the case details", i, k)
}

// benchLoad is `lexflow-bench load`: N cases at once, M turns each, through the HTTP
// API, with the offline model. It starts its own Temporal dev server and FerretDB, and
// runs the API and the worker as processes of their own (`lexflow api`, `lexflow
// worker`, from o.lexflow or a binary it builds) with the bench profile's environment; with --chaos it kills the worker
// with SIGKILL and restarts the API meanwhile. Each client retries as the "Retrying"
// table of docs/api.md allows. It reports the turns per second, the turns' latency, every
// answer by status, and an audit of the store and of Temporal (see auditLoad), and
// fails when the audit finds a problem or a request never succeeded.
func benchLoad(ctx context.Context, cfg config.Config, args []string, out io.Writer, log *slog.Logger) error {
	o, err := parseLoadOptions(args)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "lexflow-bench-load-")
	if err != nil {
		return err
	}
	failed := true
	defer func() {
		if failed {
			fmt.Fprintf(out, "The run's logs and data are kept in %s\n", dir)
			return
		}
		os.RemoveAll(dir)
	}()
	exe, err := lexflowBinary(ctx, o.lexflow, dir)
	if err != nil {
		return err
	}
	lc, env, stop, err := startLoadServers(ctx, cfg, o, dir)
	if err != nil {
		return err
	}
	defer stop()
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b, err := wiring.Open(ctx, lc, "bench", quiet)
	if err != nil {
		return err
	}
	defer b.Close()
	orgs := make([]string, o.orgs)
	for i := range orgs {
		orgs[i] = fmt.Sprintf("load-org-%02d", i+1)
		if _, err := b.Store.PutSubscription(ctx, store.Subscription{ID: store.SubscriptionID("", orgs[i]), Plan: "bench",
			Credits: map[string]int{"1": o.cases, "2": o.cases, "3": o.cases}}); err != nil {
			return err
		}
	}
	worker, api, err := startLoadProcs(exe, dir, env)
	if err != nil {
		return err
	}
	defer api.stop()
	defer worker.stop()
	sign, err := wiring.Signer(lc)
	if err != nil {
		return err
	}
	base := "http://" + lc.HTTPAddr
	if err := (&benchClient{base: base}).healthy(ctx); err != nil {
		return err
	}
	if o.cpuProfile != "" {
		stopProfile, err := startCPUProfile(o.cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	log.Info("Load running", "cases", o.cases, "turns", o.turns, "organizations", o.orgs, "chaos", o.chaos, "dir", dir)

	stats := &loadStats{statuses: map[int]int{}}
	runs := make([]caseRun, o.cases)
	tokens := make([]string, o.cases)
	loadCtx, stopChaos := context.WithCancel(ctx)
	defer stopChaos()
	var did chaos
	chaosDone := make(chan error, 1)
	go func() {
		var err error
		did, err = runChaos(loadCtx, worker, api, o.kills, o.apiRestarts, o.killEvery)
		chaosDone <- err
	}()
	start := time.Now()
	var wg sync.WaitGroup
	for i := range runs {
		tok, err := sign.Mint(auth.Identity{Subject: fmt.Sprintf("load-user-%03d", i+1), Org: orgs[i%len(orgs)], Roles: []string{schemas.RoleUser}}, o.timeout+time.Hour)
		if err != nil {
			return err
		}
		tokens[i] = tok
		c := &loadClient{base: base, tok: tok, stats: stats, stream: o.stream}
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = runCase(ctx, c, i+1, o.turns)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	stopChaos()
	if err := <-chaosDone; err != nil {
		return fmt.Errorf("chaos: %w", err)
	}
	// The audit reads through the API too: it must be up after the last restart.
	if err := (&benchClient{base: base}).healthy(ctx); err != nil {
		return err
	}
	audit := auditLoad(ctx, b, runs, lc.BlobDir, o.turns)
	audit.problems = append(audit.problems, worker.crashes()...)
	audit.problems = append(audit.problems, api.crashes()...)
	printLoad(out, o, runs, stats, did, elapsed, audit)
	if len(audit.problems) > 0 || len(stats.failed) > 0 {
		return fmt.Errorf("load: %d problems, %d failed requests", len(audit.problems), len(stats.failed))
	}
	if o.wrk > 0 {
		last, err := b.Store.LastEventSeq(ctx, runs[0].caseID)
		if err != nil {
			return err
		}
		if err := wrkReads(ctx, out, base, tokens[0], runs[0].caseID, last, o.wrk); err != nil {
			return err
		}
	}
	failed = false
	return nil
}

// startLoadServers starts the Temporal dev server and FerretDB, and returns the
// environment of the API and worker processes: this process's, with the bench
// profile's variables and the servers' addresses over it, and that environment's
// configuration.
func startLoadServers(ctx context.Context, cfg config.Config, o loadOptions, dir string) (config.Config, []string, func(), error) {
	env, err := config.ReadEnvFile(o.profile)
	if err != nil {
		return config.Config{}, nil, nil, fmt.Errorf("the bench profile: %w", err)
	}
	cli, err := devenv.FindTemporalCLI(cfg.TemporalCLI)
	if err != nil {
		return config.Config{}, nil, nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	ts, err := devenv.StartTemporal(startCtx, devenv.TemporalOptions{CLI: cli, DBFile: filepath.Join(dir, "temporal.db")})
	if err != nil {
		return config.Config{}, nil, nil, err
	}
	ferret, err := devenv.StartFerretDB(ctx, "127.0.0.1:0", filepath.Join(dir, "ferretdb"), slog.New(slog.DiscardHandler))
	if err != nil {
		ts.Stop()
		return config.Config{}, nil, nil, err
	}
	stop := func() { ferret.Stop(); ts.Stop() }
	port, err := childproc.FreePort()
	if err != nil {
		stop()
		return config.Config{}, nil, nil, err
	}
	corpusDB, err := filepath.Abs(cfg.CorpusDB)
	if err != nil {
		stop()
		return config.Config{}, nil, nil, err
	}
	secret, master := make([]byte, 32), make([]byte, 32)
	_, _ = rand.Read(secret)
	_, _ = rand.Read(master)
	maps.Copy(env, map[string]string{
		"TEMPORAL_ADDRESS": ts.Address, "LEXFLOW_TASK_QUEUE": "bench-load",
		"LEXFLOW_STORE": config.StoreMongoDB, "MONGODB_URI": ferret.URI, "MONGODB_DATABASE": "lexflow",
		"LEXFLOW_DATA_DIR": dir, "LEXFLOW_BLOB_DIR": filepath.Join(dir, "blobs"), "LEXFLOW_CORPUS_DB": corpusDB,
		"LEXFLOW_HTTP_ADDR": fmt.Sprintf("127.0.0.1:%d", port), "LEXFLOW_JWT_SECRET": hex.EncodeToString(secret),
		"LEXFLOW_MASTER_KEY":         hex.EncodeToString(master),
		"LEXFLOW_ASSISTANT_BASE_URL": "", "LEXFLOW_REASONER_BASE_URL": "",
	})
	lc, err := config.From(func(name string) (string, bool) {
		if v, ok := env[name]; ok {
			return v, true
		}
		return os.LookupEnv(name)
	})
	if err != nil {
		stop()
		return config.Config{}, nil, nil, err
	}
	environ := os.Environ() // the last of a variable's values is the one a process sees
	for _, k := range slices.Sorted(maps.Keys(env)) {
		environ = append(environ, k+"="+env[k])
	}
	return lc, environ, stop, nil
}

// startLoadProcs starts the worker and the API as processes of the lexflow binary exe
// with the environment env, each logging to a file in dir.
func startLoadProcs(exe, dir string, env []string) (worker, api *proc, err error) {
	logs := map[string]*os.File{}
	for _, name := range []string{"worker", "api"} {
		if logs[name], err = os.Create(filepath.Join(dir, name+".log")); err != nil {
			return nil, nil, err
		}
	}
	if worker, err = startProc(exe, "worker", env, logs["worker"]); err != nil {
		return nil, nil, err
	}
	if api, err = startProc(exe, "api", env, logs["api"]); err != nil {
		worker.stop()
		logs["api"].Close()
		return nil, nil, err
	}
	return worker, api, nil
}

// runCase is one client's run: it opens a case and sends its turns one after another.
func runCase(ctx context.Context, c *loadClient, i, turns int) caseRun {
	var run caseRun
	start := time.Now()
	caseID, err := c.openCase(ctx, fmt.Sprintf("load-case-%d", i), "A question about the deposit of my lease")
	if err != nil {
		run.err = err
		c.stats.add(func(s *loadStats) { s.failed = append(s.failed, fmt.Sprintf("case %d: %v", i, err)) })
		return run
	}
	run.caseID, run.open, run.first = caseID, time.Since(start), time.Now()
	for k := 1; k <= turns; k++ {
		msg := loadMessage(i, k, turns)
		body, _ := json.Marshal(map[string]string{"message": msg})
		var res schemas.TurnResult
		start := time.Now()
		err := c.send(ctx, http.MethodPost, "/v1/cases/"+caseID+"/messages", fmt.Sprintf("load-case-%d-turn-%d", i, k), string(body), &res)
		if err == nil && (res.TurnID == "" || res.Reply == "") {
			err = fmt.Errorf("turn %d answered without a turn or a reply: %+v", k, res)
		}
		if err != nil {
			run.err = err
			c.stats.add(func(s *loadStats) { s.failed = append(s.failed, fmt.Sprintf("case %d turn %d: %v", i, k, err)) })
			return run
		}
		for _, t := range res.ToolsUsed {
			if t.Status != schemas.ToolOK {
				run.toolFailures = append(run.toolFailures, fmt.Sprintf("turn %d: %s %s: %s", k, t.Tool, t.Status, t.Error))
			}
		}
		run.messages = append(run.messages, msg)
		run.latency = append(run.latency, time.Since(start))
		run.last = time.Now()
	}
	return run
}

// printLoad writes the run's report.
func printLoad(out io.Writer, o loadOptions, runs []caseRun, stats *loadStats, did chaos, elapsed time.Duration, a loadAudit) {
	mode := "answers as JSON"
	if o.stream {
		mode = "answers streamed (text/event-stream)"
	}
	fmt.Fprintf(out, "%d cases × %d turns (the last a draft PDF), %d organizations, the API and the worker as processes, %s\n", o.cases, o.turns, o.orgs, mode)
	if o.chaos {
		fmt.Fprintf(out, "chaos: the worker killed (SIGKILL) and started again %d times, the API %d times\n", did.kills, did.apiRestarts)
	}
	var opens, lat []time.Duration
	var first, last time.Time
	for _, r := range runs {
		if r.caseID == "" {
			continue
		}
		opens = append(opens, r.open)
		lat = append(lat, r.latency...)
		if first.IsZero() || r.first.Before(first) {
			first = r.first
		}
		if r.last.After(last) {
			last = r.last
		}
	}
	fmt.Fprintf(out, "the whole run: %s\n", elapsed.Round(time.Millisecond))
	if len(opens) > 0 {
		fmt.Fprintf(out, "case opened and tiered: p50 %s, p95 %s, p99 %s\n", ms(percentile(opens, 50)), ms(percentile(opens, 95)), ms(percentile(opens, 99)))
	}
	if len(lat) > 0 {
		span := last.Sub(first)
		fmt.Fprintf(out, "turns: %d answered in %s, from the first sent to the last answered: %.1f turns/s\n", len(lat), span.Round(time.Millisecond), float64(len(lat))/span.Seconds())
		fmt.Fprintf(out, "turn latency: p50 %s, p95 %s, p99 %s\n", ms(percentile(lat, 50)), ms(percentile(lat, 95)), ms(percentile(lat, 99)))
	}
	var ok, limited, server, other []string
	for _, code := range slices.Sorted(maps.Keys(stats.statuses)) {
		s := fmt.Sprintf("%d ×%d", code, stats.statuses[code])
		switch {
		case code/100 == 2:
			ok = append(ok, s)
		case code == http.StatusTooManyRequests:
			limited = append(limited, s)
		case code >= 500:
			server = append(server, s)
		default:
			other = append(other, s)
		}
	}
	list := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	fmt.Fprintf(out, "HTTP answers: %s; 429: %s; 5xx: %s; other errors: %s\n", list(ok), list(limited), list(server), list(other))
	fmt.Fprintf(out, "attempts without an answer: %d; retries: %d; requests that never succeeded: %d\n", stats.dropped, stats.retries, len(stats.failed))
	for _, f := range stats.failed {
		fmt.Fprintf(out, "  failed: %s\n", f)
	}
	a.print(out)
}

// ms rounds d to the millisecond, for the report.
func ms(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
