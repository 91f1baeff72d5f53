package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
)

// benchResearch is `lexflow-bench research`: the research tools' lookups against the
// naive LIKE scan, on the shipped corpus and on a synthetic one (built once, then
// reused).
func benchResearch(ctx context.Context, cfg config.Config, args []string, out io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("research", flag.ContinueOnError)
	articles := fs.Int("articles", 1_000_000, "articles in the synthetic corpus")
	queries := fs.Int("queries", 200, "queries timed per corpus")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, built, err := corpus.Ensure(ctx, cfg.CorpusDB); err != nil {
		return err
	} else if built {
		log.Info("Built the legal corpus", "db", cfg.CorpusDB)
	}
	shipped, err := corpus.Open(cfg.CorpusDB)
	if err != nil {
		return err
	}
	vocab, err := shipped.Vocabulary(ctx)
	shipped.Close()
	if err != nil {
		return err
	}
	synthetic := cfg.Path(fmt.Sprintf("corpus-synthetic-v5-%d.db", *articles))
	if _, err := os.Stat(synthetic); err != nil {
		log.Info("Building the synthetic corpus once", "db", synthetic, "articles", *articles, "decisions", *articles/10)
		start := time.Now()
		if err := corpus.Synthesize(ctx, synthetic, vocab, *articles, *articles/10, 1); err != nil {
			return err
		}
		log.Info("Synthetic corpus built", "took", time.Since(start).Round(time.Second))
	}
	fmt.Fprintf(out, "%-22s %-18s %10s %10s %14s %14s\n", "corpus", "tool", "p50", "p99", "naive LIKE p50", "naive LIKE p99")
	for _, c := range []struct{ name, path string }{{"shipped", cfg.CorpusDB}, {fmt.Sprintf("synthetic %d", *articles), synthetic}} {
		s, err := corpus.Open(c.path)
		if err != nil {
			return err
		}
		res, err := s.Bench(ctx, vocab, *queries, 42)
		s.Close()
		if err != nil {
			return err
		}
		for _, r := range res {
			fmt.Fprintf(out, "%-22s %-18s %10s %10s %14s %14s\n", c.name, r.Tool, r.Lookup.P50.Round(time.Microsecond),
				r.Lookup.P99.Round(time.Microsecond), r.Naive.P50.Round(time.Microsecond), r.Naive.P99.Round(time.Microsecond))
		}
	}
	return nil
}
