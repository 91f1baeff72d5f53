// Command lexflow-bench measures Lexflow; the product binary, cmd/lexflow, carries none
// of it:
//
//   - research times the research tools' lookups against a naive LIKE scan;
//   - pdf times the draft PDF renderer against WeasyPrint;
//   - stream times streamed turns, from the model's chunks to the client's events;
//   - load runs cases at once through the HTTP API, with `lexflow api` and `lexflow
//     worker` as processes (optionally killed meanwhile), audits the store and
//     Temporal, and runs wrk on the read routes;
//   - eval measures the citation check, kb_search and legislation_search (each layer on
//     and off) on the evaluation set in eval/,
//     and eval agent the agent itself on the scenarios in eval/agent/;
//   - help prints the usage.
//
// The make targets bench-load, bench-chaos, bench-stream, bench-pdf and eval run it.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/lexflow/lexflow/config"
)

const usage = `usage: lexflow-bench <command> [flags]

commands:
  research  time the research tools against a naive LIKE scan, on the shipped corpus and a synthetic one:
            lexflow-bench research [--articles N] [--queries N]
  pdf       time draft PDFs against WeasyPrint: lexflow-bench pdf [--pages N] [--runs N]
  stream    time streamed turns, the worker in the API's process and apart:
            lexflow-bench stream [--turns N] [--chunk-delay D] [--lexflow PATH]
  load      N cases × M turns at once through the API, then an audit and wrk on the read routes:
            lexflow-bench load [--cases N] [--turns M] [--orgs K] [--stream] [--chaos] [--lexflow PATH] (see -h)
  eval      measure the citation check, kb_search and legislation_search on the set in eval/: lexflow-bench eval [--misses]
            eval agent: run the agent's scenarios in eval/agent/ end to end and score them:
            lexflow-bench eval agent [--replay | --record] [--run NAMES] [--json FILE]
  help      print this text

stream and load run ` + "`lexflow worker`" + ` (load also ` + "`lexflow api`" + `) as processes: the binary --lexflow
names, else one built from this module with go build.
Configuration comes from the environment, as lexflow's does; see docs/configuration.md.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cfg, err := config.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "lexflow-bench:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	args := os.Args[2:]
	switch os.Args[1] {
	case "research":
		err = benchResearch(ctx, cfg, args, os.Stdout, log)
	case "pdf":
		err = benchPDF(ctx, args, os.Stdout)
	case "stream":
		err = benchStream(ctx, cfg, args, os.Stdout, log)
	case "load":
		err = benchLoad(ctx, cfg, args, os.Stdout, log)
	case "eval":
		if len(args) > 0 && args[0] == "agent" {
			err = runEvalAgent(ctx, cfg, args[1:], os.Stdout)
		} else {
			err = runEval(ctx, cfg, args, os.Stdout)
		}
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "lexflow-bench: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lexflow-bench:", err)
		os.Exit(1)
	}
}
