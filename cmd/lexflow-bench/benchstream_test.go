package main

import (
	"bytes"
	"context"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/config"
)

// TestBenchStream runs `lexflow-bench stream` for a few turns: it starts its own
// Temporal, FerretDB and model, times the turns with the worker in this process and in
// a `lexflow worker` of its own (a lexflow binary built for the tests), and prints a
// row of figures for each.
func TestBenchStream(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Temporal, FerretDB and a worker process")
	}
	t.Setenv("LEXFLOW_TEMPORAL_CLI", "bin/temporal")
	t.Setenv("LEXFLOW_CORPUS_DB", corpusDB)
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := benchStream(ctx, cfg, []string{"--turns", "3", "--chunk-delay", "5ms", "--lexflow", lexflowBin(t)}, &out, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	row := regexp.MustCompile(`^(API and worker in one process|worker apart \(store poll 100ms\))( +\d+\.\d ms){4}$`)
	if len(lines) != 5 || !row.MatchString(lines[3]) || !row.MatchString(lines[4]) {
		t.Fatalf("output does not have a row of figures per setup:\n%s", out.String())
	}
}

func TestBenchStreamRejectsZeroTurns(t *testing.T) {
	if err := benchStream(context.Background(), config.Config{}, []string{"--turns", "0"}, &bytes.Buffer{}, slog.New(slog.DiscardHandler)); err == nil {
		t.Fatal("bench stream --turns 0 succeeded")
	}
}
