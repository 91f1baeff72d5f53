package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/eval/agent"
)

// runEvalAgent runs `lexflow-bench eval agent`: the scenarios in eval/agent/scenarios,
// each a case run end to end on an in-process stack, against the configured model
// endpoints (the offline model when none is), recorded with --record, or answered
// from the recordings with --replay. It prints the report, writes it as JSON with
// --json, and fails when a scenario did.
func runEvalAgent(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("eval agent", flag.ContinueOnError)
	scenarios := fs.String("scenarios", "eval/agent/scenarios", "the folder of the scenarios")
	recordings := fs.String("recordings", "eval/agent/recordings", "the folder of the scenarios' recordings, one folder each")
	replay := fs.Bool("replay", false, "answer from the recordings instead of the model endpoints")
	record := fs.Bool("record", false, "record each scenario's model exchanges into its recordings folder, replacing what is there")
	run := fs.String("run", "", "comma-separated names of the scenarios to run; empty: all")
	jsonOut := fs.String("json", "", "also write the report as JSON into this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	mode := agent.Live
	switch {
	case *replay && *record:
		return errors.New("--replay and --record exclude each other")
	case *replay:
		mode = agent.Replay
	case *record:
		mode = agent.Record
	}
	all, err := agent.Load(*scenarios)
	if err != nil {
		return err
	}
	var names []string
	if *run != "" {
		names = strings.Split(*run, ",")
	}
	chosen, err := agent.Select(all, names)
	if err != nil {
		return err
	}
	// The stack's servers log their warnings and errors only: the report is the output.
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	stack, err := agent.StartStack(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stack.Close()
	var scores []agent.Score
	for _, sc := range chosen {
		o, err := stack.Run(ctx, sc, mode, *recordings)
		s := agent.Judge(sc, o, err)
		scores = append(scores, s)
	}
	model := "offline model"
	switch {
	case mode == agent.Replay:
		model = "recordings in " + *recordings
	case !cfg.Assistant.Offline():
		model = cfg.Assistant.BaseURL + " " + cfg.Assistant.Model
	}
	report := agent.NewReport(model, mode, scores)
	if err := report.WriteText(out); err != nil {
		return err
	}
	if *jsonOut != "" {
		f, err := os.Create(*jsonOut)
		if err != nil {
			return err
		}
		if err := errors.Join(report.WriteJSON(f), f.Close()); err != nil {
			return err
		}
	}
	if report.Overall.Succeeded < report.Overall.Scenarios {
		return fmt.Errorf("%d of %d scenarios failed", report.Overall.Scenarios-report.Overall.Succeeded, report.Overall.Scenarios)
	}
	return nil
}
