package api

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/lexflow/lexflow/schemas"
)

// scriptedWorkflow is a case workflow whose run and history length the test sets; its
// query answers how many queries it has answered.
type scriptedWorkflow struct {
	client.Client
	runID   string
	length  int64
	queries int
}

func (w *scriptedWorkflow) DescribeWorkflowExecution(context.Context, string, string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflow.WorkflowExecutionInfo{
		Execution: &common.WorkflowExecution{RunId: w.runID}, HistoryLength: w.length}}, nil
}

func (w *scriptedWorkflow) QueryWorkflow(_ context.Context, _, runID, _ string, _ ...any) (converter.EncodedValue, error) {
	w.queries++
	return jsonValue{schemas.CaseState{Turns: w.queries, LastTurn: runID}}, nil
}

// jsonValue is an encoded value that decodes as JSON does.
type jsonValue struct{ v any }

func (j jsonValue) HasValue() bool { return true }
func (j jsonValue) Get(ptr any) error {
	b, err := json.Marshal(j.v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, ptr)
}

// TestCaseStatesQueryOncePerHistory: a case's state is queried again only once its
// workflow's history grew or it continued as new, and the query goes to the run the
// describe saw.
func TestCaseStatesQueryOncePerHistory(t *testing.T) {
	w := &scriptedWorkflow{runID: "run-1", length: 10}
	var states caseStates
	for _, step := range []struct {
		what        string
		run         string
		length      int64
		wantQueries int
	}{
		{"the first read", "run-1", 10, 1},
		{"a read of the same history", "run-1", 10, 1},
		{"a read after the history grew", "run-1", 14, 2},
		{"another read of it", "run-1", 14, 2},
		{"a read of the run it continued as", "run-2", 3, 3},
		{"a read of another case", "run-2", 3, 4},
	} {
		w.runID, w.length = step.run, step.length
		caseID := "case-a"
		if step.what == "a read of another case" {
			caseID = "case-b"
		}
		st, err := states.get(t.Context(), w, caseID)
		if err != nil || w.queries != step.wantQueries || st.Turns != step.wantQueries || st.LastTurn != step.run {
			t.Errorf("%s: state %+v, %v after %d queries; want the answer of query %d, to %s", step.what, st, err, w.queries, step.wantQueries, step.run)
		}
	}
}

// TestCaseStatesStayBounded: past maxCaseStates cases, a new one takes an old one's place.
func TestCaseStatesStayBounded(t *testing.T) {
	var states caseStates
	for i := range maxCaseStates + 5 {
		states.keep(fmt.Sprint(i), answeredState{runID: "r"})
	}
	if n := len(states.byCase); n != maxCaseStates {
		t.Errorf("%d states kept, want %d", n, maxCaseStates)
	}
}

// TestCaseStatesKeepTheLatest: an answer for a shorter history, arriving late, does not
// replace one for a longer history of the same run.
func TestCaseStatesKeepTheLatest(t *testing.T) {
	var states caseStates
	states.keep("c", answeredState{runID: "r", length: 14, state: schemas.CaseState{Turns: 2}})
	states.keep("c", answeredState{runID: "r", length: 10, state: schemas.CaseState{Turns: 1}})
	if got := states.byCase["c"]; got.length != 14 || got.state.Turns != 2 {
		t.Errorf("kept %+v; want the answer at length 14", got)
	}
	states.keep("c", answeredState{runID: "r2", length: 3})
	if got := states.byCase["c"]; got.runID != "r2" {
		t.Errorf("kept %+v; want the new run's", got)
	}
}
