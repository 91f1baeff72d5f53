package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/auth"
	"github.com/lexflow/lexflow/blob"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/lexetools"
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
// variable set to a duration, reading a case takes that long. The models and LEXE
// tools come from Lexflow's own configuration variables, as `lexflow worker` reads them.
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
	cfg, err := config.FromEnv()
	if err != nil {
		return fail(err)
	}
	models, _, err := llm.Roles(cfg)
	if err != nil {
		return fail(err)
	}
	lc, err := corpus.Open(os.Getenv("LEXFLOW_CORPUS_DB"))
	if err != nil {
		return fail(err)
	}
	var s store.Store = st
	if d, err := time.ParseDuration(os.Getenv(helperSlowTool)); err == nil {
		s = slowStore{st, d}
	}
	b, err := blob.NewDir(os.Getenv("LEXFLOW_BLOB_DIR"))
	if err != nil {
		return fail(err)
	}
	deps := worker.Deps{Store: s, Models: models, Prompts: lib, Corpus: lc, Blobs: b}
	if cfg.LexeToolsURL != "" {
		deps.Research = lexetools.New(cfg.LexeToolsURL, 10*time.Second)
	}
	w := worker.New(tc, cfg.TaskQueue, deps)
	if err := w.Run(sdkworker.InterruptCh()); err != nil {
		return fail(err)
	}
	return 0
}

// slowStore is a store whose case reads take delay: a deliberately slow tool.
type slowStore struct {
	store.Store
	delay time.Duration
}

func (s slowStore) GetCase(ctx context.Context, id string) (store.Case, error) {
	select {
	case <-ctx.Done():
		return store.Case{}, ctx.Err()
	case <-time.After(s.delay):
		return s.Store.GetCase(ctx, id)
	}
}

// startHelperWorker starts a worker process on queue whose case reads take slow (none
// when zero), with the extra environment variables env, and returns it.
func startHelperWorker(t *testing.T, queue string, slow time.Duration, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=worker", "TEMPORAL_ADDRESS="+temporal.Address,
		"MONGODB_URI="+mongoURI, "LEXFLOW_TASK_QUEUE="+queue, "LEXFLOW_CORPUS_DB="+corpusDB,
		"LEXFLOW_BLOB_DIR="+blobDir, "LEXFLOW_MODEL_TIMEOUT=30s")
	cmd.Env = append(cmd.Env, env...)
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

// TestWorkerKilledMidTurn kills the only worker while a turn's tool call is running and
// starts another: the turn finishes, the client gets its answer, and the transcript
// holds exactly one answer for the turn.
func TestWorkerKilledMidTurn(t *testing.T) {
	queue := useQueue(t, "e2e-kill")
	first := startHelperWorker(t, queue, time.Hour)
	tok := token(t, "ion")
	id := createCase(t, tok, "Durability check on a lease question")
	answered := sendInBackground(tok, id, "show me the case details")
	turnID := schemas.TurnWorkflowID(id, 1)
	waitForActivity(t, turnID, "GetCaseDetails")
	// The case works with no progress for longer than the suite's stuck threshold.
	support, err := signer.Mint(auth.Identity{Subject: "sam", Roles: []string{auth.RoleSupport}}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !supportListHas(t, support, "stuck", id) {
		t.Errorf("support's stuck list lacks %s", id)
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	startHelperWorker(t, queue, 0)

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
		if rec.TurnID != "" { // not the tiering notice
			count[rec.Role]++
		}
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

// TestCancelRunningTurn cancels a turn while its tool call runs: the call finishes, the
// loop stops before the next model call, and the client gets a cancelled answer.
func TestCancelRunningTurn(t *testing.T) {
	queue := useQueue(t, "e2e-cancel")
	startHelperWorker(t, queue, 3*time.Second)
	tok := token(t, "kim")
	id := createCase(t, tok, "Cancel check on a lease question")
	answered := sendInBackground(tok, id, "show me the case details")
	waitForActivity(t, schemas.TurnWorkflowID(id, 1), "GetCaseDetails")

	r := call(t, "POST", "/v1/cases/"+id+"/turns/current/cancel", tok, nil)
	if r.status != http.StatusAccepted || r.body["turn_id"] != schemas.TurnWorkflowID(id, 1) {
		t.Fatalf("cancel: %d %s", r.status, r.raw)
	}
	var a answer
	select {
	case a = <-answered:
	case <-time.After(time.Minute):
		t.Fatal("the cancelled turn did not answer")
	}
	if a.err != nil {
		t.Fatal(a.err)
	}
	if a.r.status != http.StatusOK || a.r.body["cancelled"] != true || a.r.body["steps"] != float64(1) {
		t.Fatalf("answer: %d %s", a.r.status, a.r.raw)
	}
	if reply := a.r.body["reply"].(string); !strings.HasPrefix(reply, "The turn was cancelled") {
		t.Errorf("reply = %q", reply)
	}
}

// useQueue points the suite's API at a queue of the test's own, served by helper workers.
func useQueue(t *testing.T, prefix string) string {
	queue := fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
	srv := httptest.NewServer(api.New(handlers(queue)))
	saved := apiURL
	apiURL = srv.URL
	t.Cleanup(func() { apiURL = saved; srv.Close() })
	return queue
}

// answer is the outcome of a request sent in the background.
type answer struct {
	r   response
	err error
}

// sendInBackground sends a message and delivers the answer on the returned channel.
func sendInBackground(tok, caseID, message string) <-chan answer {
	answered := make(chan answer, 1)
	go func() {
		r, err := request("POST", "/v1/cases/"+caseID+"/messages", tok, map[string]any{"message": message})
		answered <- answer{r, err}
	}()
	return answered
}

// waitForActivity polls until an activity of that type is running in the workflow.
func waitForActivity(t *testing.T, workflowID, activityType string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		d, err := tc.DescribeWorkflowExecution(ctx, workflowID, "")
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
