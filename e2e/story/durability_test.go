package story_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestWorkerKilledMidTurn kills the only worker while a turn's tool call is running and
// starts another: the turn finishes, the client gets its answer, and the transcript
// holds exactly one answer for the turn.
func TestWorkerKilledMidTurn(t *testing.T) {
	t.Parallel()
	c, queue := s.ServeQueue(t, "e2e-kill")
	first := s.StartHelperWorker(t, queue, time.Hour)
	tok := s.Token(t, "ion")
	id := c.CreateCase(t, tok, "Durability check on a lease question")
	answered := c.SendInBackground(tok, id, "show me the case details")
	turnID := schemas.TurnWorkflowID(id, 1)
	s.WaitForActivity(t, turnID, "RunTool") // get_case_details, through the RunTool activity
	// The case works with no progress for longer than the suite's stuck threshold.
	support, err := s.Signer.Mint(auth.Identity{Subject: "sam", Roles: []string{schemas.RoleSupport}, Operator: true}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !c.SupportListHas(t, support, "stuck", id) {
		t.Errorf("support's stuck list lacks %s", id)
	}
	// A stuck case has made no progress for longer than the suite's second.
	stuck := c.Call(t, "GET", "/v1/support/cases?status=stuck", support, nil)
	waited := -1.0
	for _, c := range stuck.Body["cases"].([]any) {
		if c := c.(map[string]any); c["case_id"] == id {
			waited, _ = c["waited_seconds"].(float64)
		}
	}
	if waited < 1 {
		t.Errorf("the stuck case waited %v s (-1: not listed); want a second or more", waited)
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	s.StartHelperWorker(t, queue, 0)

	var r stack.Response
	select {
	case a := <-answered:
		if a.Err != nil {
			t.Fatal(a.Err)
		}
		r = a.R
	case <-time.After(2 * time.Minute):
		t.Fatal("the turn did not finish after the worker was replaced")
	}
	if r.Status != http.StatusOK || len(r.Body["tools_used"].([]any)) != 1 {
		t.Fatalf("answer: %d %s", r.Status, r.Raw)
	}
	recs, err := s.Store.ListRecords(context.Background(), id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	count := map[schemas.RecordRole]int{}
	for _, rec := range recs {
		if rec.TurnID != "" { // not a notice (the welcome, tiering's reply)
			count[rec.Role]++
		}
	}
	if count[schemas.RecordUser] != 1 || count[schemas.RecordAssistant] != 1 || count[schemas.RecordTool] != 1 {
		t.Errorf("transcript records by role = %v, want one of each", count)
	}
	// The tool's second attempt is what answered: the first died with its worker.
	iter := s.TC.GetWorkflowHistory(context.Background(), turnID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
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

// TestCancelRunningTurn cancels a turn while its tool call runs: the call is cancelled
// without waiting for it, no further model call is made, and the client gets a
// cancelled answer.
func TestCancelRunningTurn(t *testing.T) {
	t.Parallel()
	c, queue := s.ServeQueue(t, "e2e-cancel")
	s.StartHelperWorker(t, queue, 3*time.Second)
	tok := s.Token(t, "kim")
	id := c.CreateCase(t, tok, "Cancel check on a lease question")
	answered := c.SendInBackground(tok, id, "show me the case details")
	s.WaitForActivity(t, schemas.TurnWorkflowID(id, 1), "RunTool") // get_case_details

	r := c.Call(t, "POST", "/v1/cases/"+id+"/turns/current/cancel", tok, nil)
	if r.Status != http.StatusAccepted || r.Body["turn_id"] != schemas.TurnWorkflowID(id, 1) {
		t.Fatalf("cancel: %d %s", r.Status, r.Raw)
	}
	var a stack.Answer
	select {
	case a = <-answered:
	case <-time.After(time.Minute):
		t.Fatal("the cancelled turn did not stack.Answer")
	}
	if a.Err != nil {
		t.Fatal(a.Err)
	}
	if a.R.Status != http.StatusOK || a.R.Body["cancelled"] != true || a.R.Body["steps"] != float64(1) {
		t.Fatalf("answer: %d %s", a.R.Status, a.R.Raw)
	}
	if reply := a.R.Body["reply"].(string); !strings.HasPrefix(reply, "The turn was cancelled") {
		t.Errorf("reply = %q", reply)
	}
	if used := stack.ToolsUsed(a.R); len(used) != 1 || used[0]["status"] != schemas.ToolFailed {
		t.Errorf("tools used = %v, want the cancelled call, failed", used)
	}
}

// TestWorkerKilledMidStream kills the only worker while the model streams a turn's
// answer, and starts another. The client's stream shows model.retry and then the
// answer streamed again, by the new worker, up to turn.completed, which the client's
// request answers too; the heartbeat timeout, not the model call's two-minute
// timeout, is what the retry waited for. The log holds each event but the deltas
// once.
func TestWorkerKilledMidStream(t *testing.T) {
	t.Parallel()
	c, queue := s.ServeQueue(t, "e2e-kill-stream")
	first := s.StartHelperWorker(t, queue, 0, "LEXFLOW_OFFLINE_CHUNK_DELAY=500ms")
	tok := s.Token(t, "mira")
	id := c.CreateCase(t, tok, "A streamed answer cut short")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	events := stack.OpenEvents(ctx, t, c.APIURL, tok, id, "")
	turnID := schemas.TurnWorkflowID(id, 1)
	answered := c.SendInBackground(tok, id, "show me the case details")
	// The model's first call chooses the tool; the second streams the answer.
	for steps := 0; ; {
		e := stack.NextEvent(t, events, 2*time.Minute)
		if e.View.TurnID != turnID {
			continue
		}
		if e.Type == schemas.EventModelStep {
			steps++
		}
		if e.Type == schemas.EventModelDelta && steps == 1 {
			break
		}
	}
	killed := time.Now()
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	s.StartHelperWorker(t, queue, 0, "LEXFLOW_OFFLINE_CHUNK_DELAY=1ms")

	var rest []string
	var retried time.Time
	var completed schemas.TurnResult
	for {
		e := stack.NextEvent(t, events, 2*time.Minute)
		if e.View.TurnID != turnID {
			continue
		}
		rest = append(rest, e.Type)
		switch e.Type {
		case schemas.EventModelRetry:
			retried = time.Now()
		case schemas.EventModelDelta:
			var d schemas.ModelDeltaEvent
			if json.Unmarshal(e.View.Body, &d) != nil || (!retried.IsZero() && d.Attempt < 2) {
				t.Errorf("delta after the retry: %s", e.View.Body)
			}
		}
		if e.Type == schemas.EventTurnCompleted {
			if err := json.Unmarshal(e.View.Body, &completed); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	i := slices.Index(rest, schemas.EventModelRetry)
	if i < 0 || retried.Sub(killed) > time.Minute {
		t.Fatalf("after the kill the stream sent %v; want model.retry within the heartbeat timeout", rest)
	}
	tail := slices.Compact(slices.Clone(rest[i+1:]))
	if want := []string{schemas.EventModelDelta, schemas.EventModelStep, schemas.EventCitations, schemas.EventTurnCompleted}; !slices.Equal(tail, want) {
		t.Errorf("after model.retry the stream sent %v; want the answer's deltas, model.step, citations and turn.completed", rest[i+1:])
	}
	t.Logf("model.retry came %s after the kill", retried.Sub(killed).Round(time.Millisecond))

	select {
	case a := <-answered:
		if a.Err != nil || a.R.Status != http.StatusOK || a.R.Body["reply"] != completed.Reply {
			t.Fatalf("answer %v: %d %s; the stream's turn.completed said %q", a.Err, a.R.Status, a.R.Raw, completed.Reply)
		}
	case <-time.After(time.Minute):
		t.Fatal("the request got no answer")
	}
	logged, err := s.Store.ListEvents(t.Context(), id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range logged {
		if e.Type == schemas.EventModelDelta || e.Type == schemas.EventModelRetry {
			continue
		}
		key := e.Type + " " + string(e.Body)
		if seen[key] {
			t.Errorf("the log holds %s twice", key)
		}
		seen[key] = true
	}
}

// TestWorkerKilledMidErasure kills the only worker of an erasure once it has deleted
// the case's data but before the step returns, and starts another: the step runs
// again, the erasure finishes, and the case is erased.
func TestWorkerKilledMidErasure(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "ioana")
	id := s.CreateCase(t, tok, "Durability check on an erasure")
	s.Send(t, tok, id, "My landlord keeps my deposit")
	queue := "e2e-erase-" + id[:8]
	first := s.StartHelperWorker(t, queue, time.Hour)
	run, err := s.TC.ExecuteWorkflow(t.Context(), client.StartWorkflowOptions{ID: schemas.EraseWorkflowID(id), TaskQueue: queue},
		schemas.EraseWorkflow, schemas.EraseInput{CaseID: id, By: "ioana", Reason: schemas.ErasureRequested, At: time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	s.WaitForActivity(t, run.GetID(), "EraseCaseData")
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	s.StartHelperWorker(t, queue, 0)

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var receipt schemas.Erasure
	if err := run.Get(ctx, &receipt); err != nil || receipt.ErasedAt == nil || receipt.Erased.KeyDestroyedAt == nil {
		t.Fatalf("erasure = %+v, %v", receipt, err)
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id, tok, nil), http.StatusGone, "case-erased")
	s.CheckErased(t, id, "My landlord keeps my deposit")
}

// TestWorkerVersioning runs a case on workers of a Worker Deployment: its first turn on
// version v1, then, v2 made current and v1's worker killed, its second on v2. The case
// auto-upgrades (it would wait for v1's worker for ever were it pinned); each turn is
// pinned to the version it started on.
func TestWorkerVersioning(t *testing.T) {
	t.Parallel()
	c, queue := s.ServeQueue(t, "e2e-versions")
	deployment := "lexflow-" + queue
	env := func(build string) []string {
		return []string{"LEXFLOW_WORKER_DEPLOYMENT=" + deployment, "LEXFLOW_BUILD_ID=" + build}
	}
	v1 := s.StartHelperWorker(t, queue, 0, env("v1")...)
	setCurrentVersion(t, deployment, queue, "v1")
	tok := s.Token(t, "vera")
	id := c.CreateCase(t, tok, "Versioning check on a lease question")
	c.Send(t, tok, id, "show me the case details")
	wantVersion(t, schemas.CaseWorkflowID(id), "v1", enums.VERSIONING_BEHAVIOR_AUTO_UPGRADE)
	wantVersion(t, schemas.TurnWorkflowID(id, 1), "v1", enums.VERSIONING_BEHAVIOR_PINNED)

	s.StartHelperWorker(t, queue, 0, env("v2")...)
	setCurrentVersion(t, deployment, queue, "v2")
	if err := v1.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = v1.Wait()
	c.Send(t, tok, id, "show me the case details again")
	wantVersion(t, schemas.CaseWorkflowID(id), "v2", enums.VERSIONING_BEHAVIOR_AUTO_UPGRADE)
	wantVersion(t, schemas.TurnWorkflowID(id, 2), "v2", enums.VERSIONING_BEHAVIOR_PINNED)
}

// setCurrentVersion makes a deployment's build current, once its worker has polled
// (the version exists only then), and waits until queue routes by it (the server
// propagates the change after it answers), within 30 seconds.
func setCurrentVersion(t *testing.T, deployment, queue, build string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	h := s.TC.WorkerDeploymentClient().GetHandle(deployment)
	set := false
	for {
		var err error
		if !set {
			_, err = h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: build})
			set = err == nil
		}
		if set {
			var d *workflowservice.DescribeTaskQueueResponse
			d, err = s.TC.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{Namespace: "default",
				TaskQueue: &taskqueuepb.TaskQueue{Name: queue}, TaskQueueType: enums.TASK_QUEUE_TYPE_WORKFLOW})
			if err == nil && d.GetVersioningInfo().GetCurrentDeploymentVersion().GetBuildId() == build {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("set %s current in %s: %v", build, deployment, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// wantVersion fails unless the workflow runs on build with the behavior. A run that
// just continued as new has neither until its first workflow task completes: it is
// asked again, for 10 seconds.
func wantVersion(t *testing.T, workflowID, build string, behavior enums.VersioningBehavior) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		d, err := s.TC.DescribeWorkflowExecution(ctx, workflowID, "")
		v := d.GetWorkflowExecutionInfo().GetVersioningInfo()
		if err == nil && v.GetBehavior() != enums.VERSIONING_BEHAVIOR_UNSPECIFIED {
			if got := v.GetDeploymentVersion().GetBuildId(); got != build || v.GetBehavior() != behavior {
				t.Errorf("%s runs on %q (%v), want %q (%v)", workflowID, got, v.GetBehavior(), build, behavior)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s has no version: %v", workflowID, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
