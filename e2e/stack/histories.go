package stack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/proxy"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/schemas"
)

// historiesEnv names the directory that RecordHistories writes into; unset, it writes
// nothing. `make histories SET=<name>` sets it to workflows/testdata/histories/<name>.
const historiesEnv = "LEXFLOW_RECORD_HISTORIES"

// RecordHistories writes the history of every workflow run of a case (its runs, turns,
// phases, drafts and tickets) to $LEXFLOW_RECORD_HISTORIES/<name>/, replacing what that
// directory held, one JSON file per run as the Temporal CLI writes them, for
// workflows.TestReplayRecordedHistories, with its payloads decrypted.
// Files are named after the workflow ID without the case's ID ("case.turn.3.json"),
// with ".run<n>" for the runs after the first.
func (s *Stack) RecordHistories(t *testing.T, name, caseID string) {
	t.Helper()
	root := os.Getenv(historiesEnv)
	if root == "" {
		return
	}
	if err := os.RemoveAll(filepath.Join(root, name)); err != nil {
		t.Fatal(err)
	}
	s.RecordRuns(t, name, schemas.CaseWorkflowID(caseID), "case")
}

// RecordRuns writes the history of every run of the workflows whose IDs start with
// prefix to $LEXFLOW_RECORD_HISTORIES/<name>/, beside what it holds, as
// RecordHistories does, naming each file after its workflow ID with prefix replaced
// by label.
func (s *Stack) RecordRuns(t *testing.T, name, prefix, label string) {
	t.Helper()
	root := os.Getenv(historiesEnv)
	if root == "" {
		return
	}
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var execs []*workflow.WorkflowExecutionInfo
	var token []byte
	for {
		resp, err := s.TC.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: fmt.Sprintf("WorkflowId STARTS_WITH '%s'", prefix), NextPageToken: token,
		})
		if err != nil {
			t.Fatal(err)
		}
		execs = append(execs, resp.Executions...)
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	slices.SortFunc(execs, func(a, b *workflow.WorkflowExecutionInfo) int {
		return a.GetStartTime().AsTime().Compare(b.GetStartTime().AsTime())
	})
	runs := map[string]int{}
	for _, e := range execs {
		wf := e.GetExecution()
		base := strings.ReplaceAll(strings.Replace(wf.GetWorkflowId(), prefix, label, 1), ":", ".")
		runs[base]++
		file := base + ".json"
		if n := runs[base]; n > 1 {
			file = fmt.Sprintf("%s.run%d.json", base, n)
		}
		var hist historypb.History
		iter := s.TC.GetWorkflowHistory(ctx, wf.GetWorkflowId(), wf.GetRunId(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for iter.HasNext() {
			ev, err := iter.Next()
			if err != nil {
				t.Fatal(err)
			}
			if err := decodePayloads(ev, s.Keys); err != nil {
				t.Fatal(err)
			}
			hist.Events = append(hist.Events, ev)
		}
		raw, err := temporalproto.CustomJSONMarshalOptions{Indent: " "}.Marshal(&hist)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), append(raw, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("recorded %d workflow runs of %s in %s", len(execs), prefix, dir)
}

// decodePayloads decrypts the payloads of a history event in place, so that recorded
// histories replay without the keys of the run that recorded them.
func decodePayloads(ev *historypb.HistoryEvent, kr *keys.Keyring) error {
	c := &codec.Codec{Keys: kr}
	return proxy.VisitPayloads(context.Background(), ev, proxy.VisitPayloadsOptions{SkipSearchAttributes: true,
		Visitor: func(_ *proxy.VisitPayloadsContext, ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
			return c.Decode(ps)
		}})
}
