package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/wiring"
)

// streamMessage is the bench's message: the offline model answers it in text, in one
// model call, with no tool.
const streamMessage = "Hello, who are you?"

// streamCase is the description of the bench's cases.
const streamCase = "A question about the deposit of my lease"

// streamTurnsPerCase keeps each case of the bench short.
const streamTurnsPerCase = 20

// benchStream is `lexflow-bench stream`: streamed turns, sent with Accept:
// text/event-stream, timed from the model's first text chunk to the client's first
// model.delta event, and from the model's last chunk to the client's turn.completed.
// It starts its own Temporal dev server, FerretDB and offline model (timing each
// chunk as it is flushed), and runs the turns twice: with the API and the worker in
// this process, where an event wakes its stream at once, and with the worker in a
// process of its own (`lexflow worker`, from --lexflow or a binary it builds), where
// the stream finds it by polling the store.
func benchStream(ctx context.Context, cfg config.Config, args []string, out io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("stream", flag.ContinueOnError)
	turns := fs.Int("turns", 200, "turns timed in each setup")
	delay := fs.Duration("chunk-delay", 20*time.Millisecond, "the offline model's pause between chunks")
	lexflow := fs.String("lexflow", "", "the lexflow binary the worker apart runs from (default: one built from this module)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *turns < 1 {
		return errors.New("stream: --turns must be at least 1")
	}
	dir, err := os.MkdirTemp("", "lexflow-bench-stream-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	exe, err := lexflowBinary(ctx, *lexflow, dir)
	if err != nil {
		return err
	}
	cli, err := devenv.FindTemporalCLI(cfg.TemporalCLI)
	if err != nil {
		return err
	}
	startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	ts, err := devenv.StartTemporal(startCtx, devenv.TemporalOptions{CLI: cli, DBFile: filepath.Join(dir, "temporal.db")})
	if err != nil {
		return err
	}
	defer ts.Stop()
	ferret, err := devenv.StartFerretDB(ctx, "127.0.0.1:0", filepath.Join(dir, "ferretdb"), slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer ferret.Stop()
	model, err := startTimedModel(*delay)
	if err != nil {
		return err
	}
	defer model.close()

	// The API and the worker log warnings only: a line per request would be timed too.
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	secret, master := make([]byte, 32), make([]byte, 32)
	_, _ = rand.Read(secret)
	_, _ = rand.Read(master)
	bc := cfg
	bc.DataDir, bc.BlobDir = dir, filepath.Join(dir, "blobs")
	bc.TemporalAddress, bc.Store, bc.MongoURI, bc.MongoDatabase = ts.Address, config.StoreMongoDB, ferret.URI, "lexflow"
	bc.Assistant = config.Model{BaseURL: model.url + "/v1", Model: offline.ModelName}
	bc.Reasoner = bc.Assistant
	bc.JWTSecret, bc.MasterKey = hex.EncodeToString(secret), hex.EncodeToString(master)
	bc.CasesPerDay, bc.OrgCasesPerDay, bc.RequestsPerMinute, bc.OrgRequestsPerMinute, bc.OrgConcurrentTurns = 0, 0, 0, 0, 0
	bc.CaseTokensPerDay, bc.TokensPerDay = 0, 0

	fmt.Fprintf(out, "%d streamed turns per setup, the offline model pausing %s between chunks\n", *turns, *delay)
	fmt.Fprintf(out, "%-34s %-26s %s\n", "", "first chunk to model.delta", "last chunk to turn.completed")
	fmt.Fprintf(out, "%-34s %12s %12s %13s %12s\n", "setup", "p50", "p99", "p50", "p99")
	for i, split := range []bool{false, true} {
		bc.TaskQueue = fmt.Sprintf("bench-stream-%d", i)
		name := "API and worker in one process"
		if split {
			name = fmt.Sprintf("worker apart (store poll %s)", bc.EventsPoll)
		}
		log.Info("Timing streamed turns", "setup", name, "turns", *turns)
		first, last, err := streamSetup(ctx, bc, exe, split, *turns, model, quiet)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(out, "%-34s %12s %12s %13s %12s\n", name, pct(first, 50), pct(first, 99), pct(last, 50), pct(last, 99))
	}
	return nil
}

// pct is the p-th percentile of durations, in milliseconds.
func pct(d []time.Duration, p int) string {
	return fmt.Sprintf("%.1f ms", float64(percentile(d, p).Microseconds())/1000)
}

// percentile is the p-th percentile of d.
func percentile(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)*p/100, len(s)-1)]
}

// streamSetup runs turns streamed turns on an API in this process and a worker here
// or, split, in a `lexflow worker` process of the binary exe, and returns how long each turn's first
// and last chunk took to reach the client.
func streamSetup(ctx context.Context, cfg config.Config, exe string, split bool, turns int, model *timedModel, log *slog.Logger) (first, last []time.Duration, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b, err := wiring.Open(ctx, cfg, "bench", log)
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
	if _, err := b.Store.PutSubscription(ctx, store.Subscription{ID: store.SubscriptionID("", "bench"), Plan: "bench",
		Credits: map[string]int{"1": turns, "2": turns, "3": turns}}); err != nil {
		return nil, nil, err
	}
	var worker *proc
	if split {
		logFile, err := os.Create(filepath.Join(cfg.DataDir, fmt.Sprintf("worker-%s.log", cfg.TaskQueue)))
		if err != nil {
			return nil, nil, err
		}
		if worker, err = startProc(exe, "worker", streamWorkerEnv(cfg), logFile); err != nil {
			logFile.Close()
			return nil, nil, err
		}
		defer worker.stop()
	} else {
		stop, _, err := wiring.StartWorker(ctx, cfg, b, log)
		if err != nil {
			return nil, nil, err
		}
		defer stop()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	cfg.HTTPAddr = l.Addr().String()
	served := make(chan error, 1)
	go func() { served <- wiring.ServeAPI(ctx, cfg, b, log, false, l) }()
	defer func() { cancel(); <-served }()
	sign, err := wiring.Signer(cfg)
	if err != nil {
		return nil, nil, err
	}
	tok, err := sign.Mint(auth.Identity{Subject: "bench", Org: "bench", Roles: []string{schemas.RoleUser}}, time.Hour)
	if err != nil {
		return nil, nil, err
	}
	c := &benchClient{base: "http://" + cfg.HTTPAddr, tok: tok}
	if err := c.healthy(ctx); err != nil {
		return nil, nil, err
	}
	opener := &loadClient{base: c.base, tok: tok, stats: &loadStats{statuses: map[int]int{}}}
	var caseID string
	for i := range turns {
		if i%streamTurnsPerCase == 0 {
			if caseID, err = opener.openCase(ctx, fmt.Sprintf("%s-case-%d", cfg.TaskQueue, i), streamCase); err != nil {
				return nil, nil, err
			}
		}
		n := model.calls()
		got, err := c.streamTurn(ctx, caseID)
		if err != nil {
			if crashed := worker.crashes(); len(crashed) > 0 {
				err = fmt.Errorf("%w; %s", err, strings.Join(crashed, "; "))
			}
			return nil, nil, fmt.Errorf("turn %d: %w", i+1, err)
		}
		firstChunk, lastChunk := model.span(n)
		if firstChunk.IsZero() || got.firstDelta.IsZero() {
			return nil, nil, fmt.Errorf("turn %d: the model streamed no text, or the client saw none", i+1)
		}
		first = append(first, got.firstDelta.Sub(firstChunk))
		last = append(last, got.completed.Sub(lastChunk))
	}
	return first, last, nil
}

// streamWorkerEnv is the environment of the bench's `lexflow worker`: cfg's Temporal,
// store, model, task queue and master key.
func streamWorkerEnv(cfg config.Config) []string {
	return append(os.Environ(), "TEMPORAL_ADDRESS="+cfg.TemporalAddress, "MONGODB_URI="+cfg.MongoURI,
		"MONGODB_DATABASE="+cfg.MongoDatabase, "LEXFLOW_TASK_QUEUE="+cfg.TaskQueue,
		"LEXFLOW_ASSISTANT_BASE_URL="+cfg.Assistant.BaseURL, "LEXFLOW_ASSISTANT_MODEL="+cfg.Assistant.Model,
		"LEXFLOW_REASONER_BASE_URL=", "LEXFLOW_CORPUS_DB="+cfg.CorpusDB, "LEXFLOW_DATA_DIR="+cfg.DataDir,
		"LEXFLOW_BLOB_DIR="+cfg.BlobDir, "LEXFLOW_CASE_TOKENS_PER_DAY=0", "LEXFLOW_TOKENS_PER_DAY=0",
		"LEXFLOW_MASTER_KEY="+cfg.MasterKey)
}

// benchClient is the bench's client of the API.
type benchClient struct {
	base, tok string
}

// streamed is when a streamed turn's first model.delta and its turn.completed reached
// the client.
type streamed struct {
	firstDelta, completed time.Time
}

func (c *benchClient) request(ctx context.Context, method, path, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.tok)
	req.Header.Set("Content-Type", "application/json")
	return http.DefaultClient.Do(req)
}

// healthy waits, a bounded time, until the API is ready.
func (c *benchClient) healthy(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		resp, err := c.request(ctx, "GET", "/readyz", "")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the API did not answer /readyz: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// streamTurn sends the bench's message asking for Server-Sent Events, and notes when
// the first model.delta and the turn.completed event arrive.
func (c *benchClient) streamTurn(ctx context.Context, caseID string) (streamed, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", c.base+"/v1/cases/"+caseID+"/messages",
		strings.NewReader(fmt.Sprintf(`{"message":%q}`, streamMessage)))
	if err != nil {
		return streamed{}, err
	}
	req.Header.Set("Authorization", "Bearer "+c.tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return streamed{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		return streamed{}, fmt.Errorf("%d %s", resp.StatusCode, body)
	}
	var s streamed
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		typ, ok := strings.CutPrefix(sc.Text(), "event: ")
		if !ok {
			continue
		}
		switch typ {
		case schemas.EventModelDelta:
			if s.firstDelta.IsZero() {
				s.firstDelta = time.Now()
			}
		case schemas.EventTurnCompleted:
			s.completed = time.Now()
			return s, nil
		case schemas.EventTurnFailed, schemas.EventTurnCancelled:
			return s, fmt.Errorf("the turn ended with %s", typ)
		}
	}
	return s, fmt.Errorf("the stream ended before turn.completed: %v", sc.Err())
}
