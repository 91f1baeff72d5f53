package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
	"github.com/lexflow/lexflow/worker"
)

// Environment of a helper worker process: the test binary run again as a worker.
const (
	helperEnv      = "LEXFLOW_E2E_HELPER"
	helperSlowTool = "LEXFLOW_E2E_SLOW_TOOL"
)

// runHelperWorker runs a Lexflow worker until the process is killed. With the slow-tool
// variable set, reading a case blocks, so get_case_details never finishes on it.
func runHelperWorker() int {
	ctx := context.Background()
	st, err := mongostore.Open(ctx, os.Getenv("MONGODB_URI"), "lexflow")
	if err != nil {
		return fail(err)
	}
	tc, err := client.Dial(client.Options{HostPort: os.Getenv("TEMPORAL_ADDRESS"), Logger: tlog.NewStructuredLogger(logger)})
	if err != nil {
		return fail(err)
	}
	models, _, err := llm.Roles(config.Config{ModelTimeout: 30 * time.Second})
	if err != nil {
		return fail(err)
	}
	var s store.Store = st
	if os.Getenv(helperSlowTool) != "" {
		s = slowStore{st}
	}
	w := worker.New(tc, os.Getenv("LEXFLOW_TASK_QUEUE"), worker.Deps{Store: s, Models: models})
	if err := w.Run(sdkworker.InterruptCh()); err != nil {
		return fail(err)
	}
	return 0
}

// slowStore is a store whose case reads hang: a deliberately slow tool.
type slowStore struct{ store.Store }

func (s slowStore) GetCase(ctx context.Context, id string) (store.Case, error) {
	select {
	case <-ctx.Done():
		return store.Case{}, ctx.Err()
	case <-time.After(time.Hour):
		return s.Store.GetCase(ctx, id)
	}
}

// startHelperWorker starts a worker process on queue and returns it.
func startHelperWorker(t *testing.T, queue string, slow bool) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=worker", "TEMPORAL_ADDRESS="+temporal.Address,
		"MONGODB_URI="+mongoURI, "LEXFLOW_TASK_QUEUE="+queue)
	if slow {
		cmd.Env = append(cmd.Env, helperSlowTool+"=1")
	}
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

// TestWorkerKilledMidTurn kills the only worker while a turn's tool call is running and
// starts another: the turn finishes, the client gets its answer, and the transcript
// holds exactly one answer for the turn.
func TestWorkerKilledMidTurn(t *testing.T) {
	queue := fmt.Sprintf("e2e-kill-%d", time.Now().UnixNano())
	srv := httptest.NewServer(api.New(&api.Handlers{Temporal: tc, Store: st, Auth: signer, TaskQueue: queue, MaxSteps: 5, Log: logger}))
	defer srv.Close()
	saved := apiURL
	apiURL = srv.URL
	defer func() { apiURL = saved }()

	first := startHelperWorker(t, queue, true)
	tok := token(t, "ion")
	id := createCase(t, tok, "Durability check")
	type answer struct {
		r   response
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		r, err := request("POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "show me the case details"})
		answered <- answer{r, err}
	}()

	// Wait until get_case_details is running on the first worker.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	turnID := schemas.TurnWorkflowID(id, 1)
	for running := false; !running; {
		d, err := tc.DescribeWorkflowExecution(ctx, turnID, "")
		if err == nil {
			for _, a := range d.GetPendingActivities() {
				running = running || (a.GetActivityType().GetName() == "GetCaseDetails" && a.GetState() == enums.PENDING_ACTIVITY_STATE_STARTED)
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("get_case_details never started: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	startHelperWorker(t, queue, false)

	var r response
	select {
	case a := <-answered:
		if a.err != nil {
			t.Fatal(a.err)
		}
		r = a.r
	case <-time.After(2 * time.Minute):
		t.Fatal("the turn did not finish after the worker was replaced")
	}
	if r.status != http.StatusOK || len(r.body["tools_used"].([]any)) != 1 {
		t.Fatalf("answer: %d %s", r.status, r.raw)
	}
	recs, err := st.ListRecords(context.Background(), id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, rec := range recs {
		count[rec.Role]++
	}
	if count[store.RoleUser] != 1 || count[store.RoleAssistant] != 1 || count[store.RoleTool] != 1 {
		t.Errorf("transcript records by role = %v, want one of each", count)
	}
	// The tool's second attempt is what answered: the first died with its worker.
	iter := tc.GetWorkflowHistory(context.Background(), turnID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	attempts := 0
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
			attempts = max(attempts, int(a.GetAttempt()))
		}
	}
	if attempts < 2 {
		t.Errorf("the tool finished on attempt %d; the kill did not interrupt it", attempts)
	}
}
