package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/temporalauth"
	"github.com/lexflow/lexflow/worker"
	"github.com/lexflow/lexflow/workflows"
)

// runVersions prints, for each workflow.GetVersion change ID in use
// (workflows.Changes), how many open runs may still replay its old branch
// (worker.Unmarked): a change whose count is zero can be deleted with its guard.
func runVersions(ctx context.Context, cfg config.Config, out io.Writer) error {
	if len(workflows.Changes) == 0 {
		fmt.Fprintln(out, "No workflow.GetVersion change IDs are in use (workflows.Changes is empty).")
		return nil
	}
	opts, err := temporalauth.Apply(client.Options{HostPort: cfg.TemporalAddress, Namespace: cfg.TemporalNamespace}, cfg.TemporalAuth)
	if err != nil {
		return err
	}
	c, err := client.Dial(opts)
	if err != nil {
		return fmt.Errorf("connect to Temporal at %s: %w", cfg.TemporalAddress, err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	fmt.Fprintf(out, "%-32s %-28s %-20s %s\n", "CHANGE", "WORKFLOWS", "SINCE", "UNMARKED OPEN RUNS")
	for _, ch := range workflows.Changes {
		n, err := worker.Unmarked(ctx, c, ch)
		if err != nil {
			return err
		}
		verdict := ""
		if n == 0 {
			verdict = "  (delete the guard and its old branch)"
		}
		fmt.Fprintf(out, "%-32s %-28s %-20s %d%s\n", ch.ID, strings.Join(ch.Workflows, ","), ch.Since.UTC().Format(time.RFC3339), n, verdict)
	}
	return nil
}
