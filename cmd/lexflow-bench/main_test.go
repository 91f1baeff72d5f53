package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/internal/testcorpus"
)

// asCommand makes the test binary act as the lexflow-bench command when this is set,
// so the tests run the real program without building it separately.
const asCommand = "LEXFLOW_BENCH_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) != "" {
		main()
		os.Exit(0)
	}
	var err error
	if tmp, err = os.MkdirTemp("", "lexflow-bench-cmd-"); err != nil {
		panic(err)
	}
	if corpusDB, err = testcorpus.Path(context.Background(), tmp); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// tmp is the package's temporary directory; corpusDB, in it, the legal corpus the
// tests share, so that none of them builds one.
var tmp, corpusDB string

var (
	buildLexflow sync.Once
	lexflowExe   string
	lexflowErr   error
)

// lexflowBin is the lexflow binary whose `api` and `worker` the benches run, built
// once for the package's tests.
func lexflowBin(t *testing.T) string {
	t.Helper()
	buildLexflow.Do(func() { lexflowExe, lexflowErr = lexflowBinary(context.Background(), "", tmp) })
	if lexflowErr != nil {
		t.Fatal(lexflowErr)
	}
	return lexflowExe
}

// command is this test binary run as `lexflow-bench args...`, on the shared corpus
// with a data directory of its own.
func command(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asCommand+"=1", "LEXFLOW_CORPUS_DB="+corpusDB, "LEXFLOW_DATA_DIR="+filepath.Join(t.TempDir(), "data"))
	return cmd
}

func TestUnknownCommand(t *testing.T) {
	out, err := command(t, "frobnicate").CombinedOutput()
	if err == nil || !strings.Contains(string(out), `lexflow-bench: unknown command "frobnicate"`) {
		t.Fatalf("lexflow-bench frobnicate: %v %s", err, out)
	}
}

func TestBenchResearch(t *testing.T) {
	out, err := command(t, "research", "--articles", "3000", "--queries", "10").CombinedOutput()
	if err != nil {
		t.Fatalf("lexflow-bench research: %v\n%s", err, out)
	}
	for _, want := range []string{"naive LIKE p50", "shipped                kb_search", "synthetic 3000         normattiva_search"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
