package agent_test

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/eval/agent"
	"github.com/lexflow/lexflow/internal/testcorpus"
)

// TestScenariosFromRecordings runs every scenario that has recordings (a folder
// under recordings/, which `make record-offline` records from the offline model) end
// to end on the in-process stack, every model answer replayed, and wants each to
// pass its checks: the agent's tools, citations, case file, draft, language,
// questions and the parties' data kept from the model.
func TestScenariosFromRecordings(t *testing.T) {
	all, err := agent.Load("scenarios")
	if err != nil {
		t.Fatal(err)
	}
	folders, err := os.ReadDir("recordings")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range folders {
		names = append(names, f.Name())
	}
	if len(names) < 3 {
		t.Fatalf("recordings of %d scenarios (%q), want at least 3", len(names), names)
	}
	chosen, err := agent.Select(all, names)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.From(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if cfg.CorpusDB, err = testcorpus.Path(ctx, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	stack, err := agent.StartStack(ctx, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	var scores []agent.Score
	for _, sc := range chosen {
		out, err := stack.Run(ctx, sc, agent.Replay, "recordings")
		s := agent.Judge(sc, out, err)
		if !s.Success {
			t.Errorf("%s: %s %s", sc.Name, strings.Join(s.Failures, "; "), s.Error)
		}
		scores = append(scores, s)
	}
	var b strings.Builder
	if err := agent.NewReport("recordings", agent.Replay, scores).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}
