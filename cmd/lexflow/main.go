// Command lexflow runs Lexflow, and holds what its operators run:
//
//   - dev starts the whole product on one machine: the Temporal dev server and its Web
//     UI, embedded FerretDB (or the Firestore emulator), the worker and the API;
//   - api serves the REST API, one of its two stateless processes;
//   - worker runs the Temporal worker, the other;
//   - token mints a dev bearer token;
//   - corpus load builds the legal corpus database; corpus embed computes its articles'
//     vectors with the embeddings endpoint, for dense retrieval;
//   - model serves the offline model on its own;
//   - versions counts, per workflow.GetVersion change ID, the open runs that may still
//     replay its old branch;
//   - keys rotate rewraps the data keys under a new master key;
//   - context prints what a case's next model call would read, through the API;
//   - probe is the container images' health check;
//   - help prints the usage.
//
// Benches, load generation and evaluation are cmd/lexflow-bench's.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	// The time zone database, embedded: a deadline ends at 24:00 in its court's zone
	// (internal/deadline), wherever the binary runs, distroless images included.
	_ "time/tzdata"

	"github.com/lexflow/lexflow/config"
)

const usage = `usage: lexflow <command> [flags]

commands:
  dev      start the Temporal dev server with its Web UI, the store (embedded FerretDB, or with
           LEXFLOW_STORE=firestore the Firestore emulator), the worker and the API
  api      serve the REST API (and /metrics on LEXFLOW_METRICS_ADDR)
  worker   run the Temporal worker (and /healthz, /readyz, /metrics on LEXFLOW_WORKER_HTTP_ADDR)
  token    print a bearer token: lexflow token --sub alice --org acme --role user [--ttl 24h];
           a staff token names an --org or is the operator's (--operator, every tenant)
  corpus   build the legal corpus database: lexflow corpus load; its vectors: lexflow corpus embed
  model    serve the offline model: lexflow model [--addr 127.0.0.1:8090] [--chunk-delay D]
  versions count, per workflow.GetVersion change ID, the open runs that may still
           replay its old branch: at zero its guard can go (make versions)
  keys     rewrap every data key under LEXFLOW_MASTER_KEY after a rotation: lexflow keys rotate
  context  print what a case's next model call would read, each part with its size (an
           admin's GET /v1/admin/cases/{id}/context): lexflow context --token T [--json] <case-id>
  probe    GET a URL, failing unless it answers 2xx within 5 s (containers' health checks):
           lexflow probe http://127.0.0.1:8080/readyz
  help     print this text

Benches, load tests and the evaluation are lexflow-bench's: go run ./cmd/lexflow-bench help.
Configuration comes from the environment; see docs/configuration.md.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cfg, err := config.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "lexflow:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	args := os.Args[2:]
	switch os.Args[1] {
	case "dev":
		err = runDev(ctx, cfg, log)
	case "api":
		err = runAPI(ctx, cfg, log)
	case "worker":
		err = runWorker(ctx, cfg, log)
	case "token":
		err = runToken(cfg, args, os.Stdout)
	case "model":
		err = runModel(ctx, cfg, args, log)
	case "corpus":
		err = runCorpus(ctx, cfg, args, os.Stdout)
	case "versions":
		err = runVersions(ctx, cfg, os.Stdout)
	case "keys":
		err = runKeys(ctx, cfg, args, os.Stdout)
	case "probe":
		err = runProbe(ctx, args, os.Stdout)
	case "context":
		err = runContext(ctx, cfg, args, os.Stdout)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "lexflow: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lexflow:", err)
		os.Exit(1)
	}
}
