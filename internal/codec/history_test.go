package codec_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/proxy"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/testenv"
)

// canary stands for a client's words: it must appear in no history in cleartext.
const canary = "Ilinca Zăvoianu"

func echo(_ context.Context, s string) (string, error) { return s + " (echoed)", nil }

func fail(_ context.Context, s string) error {
	return temporal.NewNonRetryableApplicationError("cannot handle "+s, "Refused", nil, s)
}

func child(_ workflow.Context, s string) (string, error) { return "child saw " + s, nil }

// talk carries the canary through every kind of payload: input, an activity's
// arguments and result, an activity's failure, a child's input and result, a query, a
// signal, an update, a memo, and the workflow's own failure.
func talk(ctx workflow.Context, s string) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var out string
	if err := workflow.SetQueryHandler(ctx, "said", func() (string, error) { return out, nil }); err != nil {
		return err
	}
	// The update answers once the child has.
	if err := workflow.SetUpdateHandler(ctx, "say", func(ctx workflow.Context, u string) (string, error) {
		return "heard " + u, workflow.Await(ctx, func() bool { return out != "" })
	}); err != nil {
		return err
	}
	if err := workflow.ExecuteActivity(ctx, echo, s).Get(ctx, nil); err != nil {
		return err
	}
	if err := workflow.ExecuteActivity(ctx, fail, s).Get(ctx, nil); err == nil {
		return errors.New("fail did not fail")
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: workflow.GetInfo(ctx).WorkflowExecution.ID + ":child"})
	var said string
	if err := workflow.ExecuteChildWorkflow(cctx, child, s).Get(ctx, &said); err != nil {
		return err
	}
	out = said
	if err := workflow.UpsertMemo(ctx, map[string]any{"said": s}); err != nil {
		return err
	}
	var sig string
	workflow.GetSignalChannel(ctx, "say").Receive(ctx, &sig)
	return fmt.Errorf("gave up on %s after %s", s, sig)
}

// TestHistories runs a case's workflow and a workflow of no case on a dev server with
// the codec on client and worker, and reads their histories: every payload, failures'
// messages included, is sealed under the case's key or the system key, and the canary
// appears nowhere in the events' bytes. A client without the codec sees ciphertext.
func TestHistories(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal dev server")
	}
	ts := testenv.Temporal(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	kr := keyring(t)
	tc, err := client.Dial(codec.Apply(client.Options{HostPort: ts.Address}, kr, true))
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	w := worker.New(tc, "codec-test", worker.Options{})
	w.RegisterWorkflow(talk)
	w.RegisterWorkflow(child)
	w.RegisterActivity(echo)
	w.RegisterActivity(fail)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	for _, tc2 := range []struct{ id, key string }{{"case:c-1", "case:c-1"}, {"erase:c-1", keys.SystemKeyID}} {
		t.Run(tc2.id, func(t *testing.T) {
			run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tc2.id, TaskQueue: "codec-test", Memo: map[string]any{"started": canary}}, talk, canary)
			if err != nil {
				t.Fatal(err)
			}
			h, err := tc.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: tc2.id, UpdateName: "say", Args: []any{canary},
				WaitForStage: client.WorkflowUpdateStageCompleted})
			if err != nil {
				t.Fatal(err)
			}
			var heard string
			if err := h.Get(ctx, &heard); err != nil || heard != "heard "+canary {
				t.Fatalf("update = %q, %v", heard, err)
			}
			v, err := tc.QueryWorkflow(ctx, tc2.id, "", "said")
			var said string
			if err != nil || v.Get(&said) != nil || said != "child saw "+canary {
				t.Fatalf("query = %q, %v", said, err)
			}
			if err := tc.SignalWorkflow(ctx, tc2.id, "", "say", canary); err != nil {
				t.Fatal(err)
			}
			err = run.Get(ctx, nil)
			if err == nil || !strings.Contains(err.Error(), "gave up on "+canary) {
				t.Fatalf("the workflow's failure reads %v; the codec's client decodes it", err)
			}
			checkHistory(t, tc, tc2.id, tc2.key)
			checkHistory(t, tc, tc2.id+":child", tc2.key)
		})
	}
}

// checkHistory fails if the workflow's history holds the canary, or a payload that is
// not sealed under key.
func checkHistory(t *testing.T, tc client.Client, id, key string) {
	t.Helper()
	iter := tc.GetWorkflowHistory(context.Background(), id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var sealed int
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := proto.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), canary) || strings.Contains(string(raw), "Zăvoianu") {
			t.Errorf("%s event %d (%s) holds the canary in cleartext", id, ev.GetEventId(), ev.GetEventType())
		}
		err = proxy.VisitPayloads(context.Background(), ev, proxy.VisitPayloadsOptions{SkipSearchAttributes: true,
			Visitor: func(_ *proxy.VisitPayloadsContext, ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
				for _, p := range ps {
					if !codec.Encrypted(p) || codec.KeyOf(p) != key {
						t.Errorf("%s event %d (%s) has a payload under %q, want %q: %v", id, ev.GetEventId(), ev.GetEventType(), codec.KeyOf(p), key, p.GetMetadata())
					}
					sealed++
				}
				return ps, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if sealed == 0 {
		t.Errorf("%s: no payload found in its history", id)
	}
}
