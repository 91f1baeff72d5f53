package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/corpus/dense"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/wiring"
)

func runAPI(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	if err := wiring.RequireSecrets(cfg, true); err != nil {
		return err
	}
	l, err := listenAPI(cfg)
	if err != nil {
		return err
	}
	defer l.Close()
	b, err := wiring.Open(ctx, cfg, "api", log)
	if err != nil {
		return err
	}
	defer b.Close()
	log.Info("API listening", "addr", cfg.HTTPAddr)
	return wiring.ServeAPI(ctx, cfg, b, log, false, l)
}

// listenAPI takes the API's address before anything else starts, so that a port in
// use fails at once, and no other process takes it while the rest starts.
func listenAPI(cfg config.Config) (net.Listener, error) {
	l, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return nil, fmt.Errorf("API: %w", err)
	}
	return l, nil
}

func runWorker(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	if err := wiring.RequireSecrets(cfg, false); err != nil {
		return err
	}
	if err := wiring.RefuseModelRecordings(cfg); err != nil {
		return err
	}
	b, err := wiring.Open(ctx, cfg, "worker", log)
	if err != nil {
		return err
	}
	defer b.Close()
	stop, lc, err := wiring.StartWorker(ctx, cfg, b, log)
	if err != nil {
		return err
	}
	defer stop()
	if cfg.WorkerHTTPAddr != "" {
		opsDone, err := wiring.ServeOps(ctx, cfg.WorkerHTTPAddr, wiring.WorkerOps(b, lc, log), log)
		if err != nil {
			return fmt.Errorf("LEXFLOW_WORKER_HTTP_ADDR %s: %w", cfg.WorkerHTTPAddr, err)
		}
		defer func() { <-opsDone }() // before the backends close
	}
	log.Info("Worker running", "task_queue", cfg.TaskQueue, "temporal", cfg.TemporalAddress)
	<-ctx.Done()
	return nil
}

func runToken(cfg config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	sub := fs.String("sub", "", "subject: the user's ID (required)")
	org := fs.String("org", "", "organization")
	roles := fs.String("role", "user", "comma-separated roles: "+strings.Join(schemas.TokenRoles, ", "))
	operator := fs.Bool("operator", false, "the operator's staff, who act on every tenant (a staff token needs --org or --operator)")
	ttl := fs.Duration("ttl", 24*time.Hour, "how long the token is valid")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := devJWTSecret(&cfg); err != nil {
		return err
	}
	sign, err := wiring.Signer(cfg)
	if err != nil {
		return err
	}
	token, err := sign.Mint(auth.Identity{Subject: *sub, Org: *org, Roles: strings.Split(*roles, ","), Operator: *operator}, *ttl)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, token)
	return err
}

// devJWTSecret fills in, when the environment gives none, the JWT secret of `lexflow
// dev`: the one generated into the data directory, generated now if no dev ran yet.
func devJWTSecret(cfg *config.Config) error {
	if cfg.JWTSecret != "" {
		return nil
	}
	raw, err := auth.LoadOrCreateSecret(cfg.Path("jwt-secret"))
	if err != nil {
		return fmt.Errorf("dev JWT secret: %w", err)
	}
	cfg.JWTSecret = string(raw)
	return nil
}

func runModel(ctx context.Context, cfg config.Config, args []string, log *slog.Logger) error {
	fs := flag.NewFlagSet("model", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "listen address")
	delay := fs.Duration("chunk-delay", cfg.OfflineChunkDelay, "pause between the chunks of a streamed answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	srv, err := offline.StartWith(*addr, offline.Options{ChunkDelay: *delay})
	if err != nil {
		return err
	}
	log.Info("Offline model serving", "base_url", srv.BaseURL)
	<-ctx.Done()
	return srv.Stop(context.Background())
}

// runCorpus builds the legal corpus database from the archive shipped in the binary and
// prints the rows of each source.
func runCorpus(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	if len(args) == 1 && args[0] == "embed" {
		return runCorpusEmbed(ctx, cfg, out)
	}
	if len(args) != 1 || args[0] != "load" {
		return errors.New("usage: lexflow corpus load|embed")
	}
	start := time.Now()
	counts, err := corpus.Build(ctx, cfg.CorpusDB)
	if err != nil {
		return err
	}
	printCounts(out, counts)
	_, err = fmt.Fprintf(out, "built %s in %s\n", cfg.CorpusDB, time.Since(start).Round(time.Millisecond))
	return err
}

// runCorpusEmbed computes the vectors of the corpus's articles with the embeddings
// endpoint, or those it lacks when an earlier run stopped, and keeps them beside the
// corpus for the worker's dense retrieval.
func runCorpusEmbed(ctx context.Context, cfg config.Config, out io.Writer) error {
	if cfg.Embeddings.Offline() {
		return errors.New("lexflow corpus embed: set LEXFLOW_EMBEDDINGS_URL and LEXFLOW_EMBEDDINGS_MODEL")
	}
	if _, _, err := corpus.Ensure(ctx, cfg.CorpusDB); err != nil {
		return err
	}
	lc, err := corpus.Open(cfg.CorpusDB)
	if err != nil {
		return err
	}
	defer lc.Close()
	start := time.Now()
	path := dense.SidecarPath(cfg.CorpusDB, cfg.Embeddings.Model)
	ix, err := dense.Build(ctx, path, cfg.Embeddings.Model, lc.Fingerprint(ctx), lc,
		llm.NewEmbedder(wiring.EmbeddingsEndpoint(cfg)), dense.BuildOptions{})
	if err != nil {
		return fmt.Errorf("%w (run it again to resume)", err)
	}
	_, err = fmt.Fprintf(out, "%d article vectors of %d dimensions in %s, in %s\n", ix.Len(), ix.Dim, path, time.Since(start).Round(time.Millisecond))
	return err
}

// printCounts writes the rows of each source as a table.
func printCounts(out io.Writer, counts corpus.Counts) {
	fmt.Fprintf(out, "%-26s %9s %10s\n", "source", "articles", "decisions")
	for _, src := range []string{corpus.SourceGDPR, corpus.SourceNormattiva, corpus.SourceCostituzione, corpus.SourceROCodes, corpus.SourceCassazione, corpus.SourceRejust} {
		fmt.Fprintf(out, "%-26s %9d %10d\n", src, counts[src].Articles, counts[src].Decisions)
	}
}
