package stack

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/wiring"
	"github.com/lexflow/lexflow/worker"
)

// Environment of a helper worker process: the test binary run again as a worker.
const (
	helperEnv      = "LEXFLOW_E2E_HELPER"
	helperSlowTool = "LEXFLOW_E2E_SLOW_TOOL"
	// SlowStatus, set to a duration in a helper worker's environment, makes its writes
	// of a case's recorded status take that long, so that the case's record lags
	// behind its event log.
	SlowStatus = "LEXFLOW_E2E_SLOW_STATUS"
)

// runHelperWorker runs a Lexflow worker until the process is killed, with the
// dependencies `lexflow worker` builds (wiring.WorkerDeps) from Lexflow's own
// configuration variables. With the slow-tool variable set to a duration, reading a
// case, or erasing one, takes that long; with SlowStatus, recording a case's status.
func runHelperWorker() int {
	if err := helperWorker(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e helper worker:", err)
		return 1
	}
	return 0
}

func helperWorker() error {
	ctx := context.Background()
	log := newLogger()
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	b, err := wiring.Open(ctx, cfg, "e2e-helper", log)
	if err != nil {
		return err
	}
	defer b.Close()
	if d, err := time.ParseDuration(os.Getenv(helperSlowTool)); err == nil {
		b.Store = slowStore{b.Store, d}
	}
	if d, err := time.ParseDuration(os.Getenv(SlowStatus)); err == nil {
		b.Store = slowStatusStore{b.Store, d}
	}
	lc, err := corpus.Open(cfg.CorpusDB)
	if err != nil {
		return err
	}
	deps, stop, err := wiring.WorkerDeps(cfg, b, lc)
	if err != nil {
		return err
	}
	defer stop()
	version, err := worker.VersionOf(cfg.WorkerDeployment, cfg.BuildID)
	if err != nil {
		return err
	}
	return worker.New(b.Temporal, cfg.TaskQueue, deps, version).Run(sdkworker.InterruptCh())
}

// slowStore is a store whose case reads take delay, a deliberately slow tool, and
// whose erasures of a case's data do too.
type slowStore struct {
	store.Store
	delay time.Duration
}

func (s slowStore) GetCase(ctx context.Context, id string) (store.Case, error) {
	if err := wait(ctx, s.delay); err != nil {
		return store.Case{}, err
	}
	return s.Store.GetCase(ctx, id)
}

// EraseCaseData erases, then waits: a worker killed meanwhile dies with the step
// half done.
func (s slowStore) EraseCaseData(ctx context.Context, id string) (schemas.Erased, error) {
	erased, err := s.Store.EraseCaseData(ctx, id)
	if err != nil {
		return schemas.Erased{}, err
	}
	return erased, wait(ctx, s.delay)
}

// slowStatusStore is a store whose writes of a case's status wait delay first.
type slowStatusStore struct {
	store.Store
	delay time.Duration
}

func (s slowStatusStore) PutStatus(ctx context.Context, id string, st schemas.CaseStatus) error {
	if err := wait(ctx, s.delay); err != nil {
		return err
	}
	return s.Store.PutStatus(ctx, id, st)
}

// wait waits delay, or until ctx ends.
func wait(ctx context.Context, delay time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(delay):
		return nil
	}
}

// StartHelperWorker starts a worker process on queue whose case reads and erasures take slow (none
// when zero), with the extra environment variables env (SlowStatus among them), and
// returns it. The process is the test binary run again; Main runs it as a worker.
func (s *Stack) StartHelperWorker(t *testing.T, queue string, slow time.Duration, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=worker", "TEMPORAL_ADDRESS="+s.Temporal.Address,
		"LEXFLOW_TASK_QUEUE="+queue, "LEXFLOW_CORPUS_DB="+s.CorpusDB,
		"LEXFLOW_BLOB_DIR="+s.BlobDir, "LEXFLOW_MODEL_TIMEOUT=30s", "LEXFLOW_MASTER_KEY="+MasterKey,
		"LEXFLOW_KEY_CACHE_TTL="+KeyCacheTTL.String())
	cmd.Env = append(append(cmd.Env, s.storeEnv...), env...)
	if slow > 0 {
		cmd.Env = append(cmd.Env, helperSlowTool+"="+slow.String())
	}
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

// WaitForActivity polls until an activity of that type is running in the workflow.
func (s *Stack) WaitForActivity(t *testing.T, workflowID, activityType string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		d, err := s.TC.DescribeWorkflowExecution(ctx, workflowID, "")
		if err == nil {
			for _, a := range d.GetPendingActivities() {
				if a.GetActivityType().GetName() == activityType && a.GetState() == enums.PENDING_ACTIVITY_STATE_STARTED {
					return
				}
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never started in %s: %v", activityType, workflowID, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
