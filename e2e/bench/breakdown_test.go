package bench_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
)

// A turn's time through Temporal is cut into these spans, read from the histories of
// the Case and its ChatTurn child (event times are the server's) and from the
// client's clock (the same machine's):
const (
	spanAdmit      = "update admitted"         // the client's request to the Case's UpdateAccepted event
	spanStartChild = "case starts the turn"    // UpdateAccepted to the ChatTurn's WorkflowExecutionStarted
	spanWFTQueue   = "workflow task queued"    // each WorkflowTaskScheduled to its WorkflowTaskStarted, in the ChatTurn
	spanWFTRun     = "workflow task run"       // each WorkflowTaskStarted to its WorkflowTaskCompleted
	spanActQueue   = "activity queued"         // each ActivityTaskScheduled to its ActivityTaskStarted
	spanActRun     = "activity run"            // each ActivityTaskStarted to its ActivityTaskCompleted
	spanGaps       = "between events"          // the rest of the ChatTurn: a completion to the next task's scheduling
	spanEndChild   = "case ends the update"    // the ChatTurn's WorkflowExecutionCompleted to the Case's UpdateCompleted
	spanAnswer     = "update answer to client" // UpdateCompleted to the client's answer
)

// spans is the order the breakdown prints them in.
var spans = []string{spanAdmit, spanStartChild, spanWFTQueue, spanWFTRun, spanActQueue, spanActRun, spanGaps, spanEndChild, spanAnswer}

// turnTimes is one turn's breakdown: the time in each span, each activity type's run
// time, and the ChatTurn's shape (its commands in order).
type turnTimes struct {
	spans    map[string]time.Duration
	activity map[string]time.Duration
	shape    []string
}

// Kinds of the ChatTurn's commands in a shape.
const (
	kindActivity = "activity"
	kindLocal    = "local activity"
	kindChild    = "child workflow"
)

// timeTurn breaks down one turn: sent and answered are the client's clock, updateID
// the update that ran it in the Case, turnID its ChatTurn's workflow ID.
func timeTurn(ctx context.Context, tc client.Client, caseHistory []*history.HistoryEvent, updateID, turnID string, sent, answered time.Time) (turnTimes, error) {
	var accepted, completed time.Time
	for _, e := range caseHistory {
		switch e.GetEventType() {
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
			if e.GetWorkflowExecutionUpdateAcceptedEventAttributes().GetProtocolInstanceId() == updateID {
				accepted = e.GetEventTime().AsTime()
			}
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED:
			if e.GetWorkflowExecutionUpdateCompletedEventAttributes().GetMeta().GetUpdateId() == updateID {
				completed = e.GetEventTime().AsTime()
			}
		}
	}
	if accepted.IsZero() || completed.IsZero() {
		return turnTimes{}, fmt.Errorf("update %s: no accepted or completed event in the case's history", updateID)
	}
	turn, err := historyOf(ctx, tc, turnID)
	if err != nil {
		return turnTimes{}, err
	}
	t, err := timeTurnEvents(turn)
	started, ended := turn[0].GetEventTime().AsTime(), turn[len(turn)-1].GetEventTime().AsTime()
	t.spans[spanAdmit] = accepted.Sub(sent)
	t.spans[spanStartChild] = started.Sub(accepted)
	t.spans[spanEndChild] = completed.Sub(ended)
	t.spans[spanAnswer] = answered.Sub(completed)
	return t, err
}

// timeTurnEvents breaks down a ChatTurn's own history, and reads its shape.
func timeTurnEvents(turn []*history.HistoryEvent) (turnTimes, error) {
	t := turnTimes{spans: map[string]time.Duration{}, activity: map[string]time.Duration{}}
	if last := turn[len(turn)-1].GetEventType(); last != enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
		return t, fmt.Errorf("the turn ended with %s", last)
	}
	at := map[int64]time.Time{}
	scheduled := map[int64]string{}
	for _, e := range turn {
		at[e.GetEventId()] = e.GetEventTime().AsTime()
		since := func(id int64) time.Duration { return e.GetEventTime().AsTime().Sub(at[id]) }
		switch e.GetEventType() {
		case enums.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			t.spans[spanWFTQueue] += since(e.GetWorkflowTaskStartedEventAttributes().GetScheduledEventId())
		case enums.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			t.spans[spanWFTRun] += since(e.GetWorkflowTaskCompletedEventAttributes().GetStartedEventId())
		case enums.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			scheduled[e.GetEventId()] = e.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName()
			t.shape = append(t.shape, kindActivity)
		case enums.EVENT_TYPE_ACTIVITY_TASK_STARTED:
			t.spans[spanActQueue] += since(e.GetActivityTaskStartedEventAttributes().GetScheduledEventId())
		case enums.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			a := e.GetActivityTaskCompletedEventAttributes()
			d := since(a.GetStartedEventId())
			t.spans[spanActRun] += d
			t.activity[scheduled[a.GetScheduledEventId()]] += d
		case enums.EVENT_TYPE_MARKER_RECORDED:
			if e.GetMarkerRecordedEventAttributes().GetMarkerName() == "LocalActivity" {
				t.shape = append(t.shape, kindLocal)
			}
		case enums.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
			t.shape = append(t.shape, kindChild)
		}
	}
	started, ended := turn[0].GetEventTime().AsTime(), turn[len(turn)-1].GetEventTime().AsTime()
	t.spans[spanGaps] = ended.Sub(started) - t.spans[spanWFTQueue] - t.spans[spanWFTRun] - t.spans[spanActQueue] - t.spans[spanActRun]
	return t, nil
}

// historyOf is a workflow's history, its latest run's.
func historyOf(ctx context.Context, tc client.Client, id string) ([]*history.HistoryEvent, error) {
	return runHistory(ctx, tc, id, "")
}

// caseHistory is the history of every run of a workflow from runID on, the runs it
// continued as new into following it.
func caseHistory(ctx context.Context, tc client.Client, id, runID string) ([]*history.HistoryEvent, error) {
	var all []*history.HistoryEvent
	for runID != "" {
		events, err := runHistory(ctx, tc, id, runID)
		if err != nil {
			return nil, err
		}
		all = append(all, events...)
		runID = events[len(events)-1].GetWorkflowExecutionContinuedAsNewEventAttributes().GetNewExecutionRunId()
	}
	return all, nil
}

// runHistory is the history of one run of a workflow ("": its latest).
func runHistory(ctx context.Context, tc client.Client, id, runID string) ([]*history.HistoryEvent, error) {
	it := tc.GetWorkflowHistory(ctx, id, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*history.HistoryEvent
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("history of %s: %w", id, err)
		}
		events = append(events, e)
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("history of %s is empty", id)
	}
	return events, nil
}

// printBreakdown writes each span's p50 and p99 per turn, then each activity type's.
func printBreakdown(w io.Writer, turns []turnTimes) {
	perTurn := map[string][]time.Duration{}
	var types []string
	for _, t := range turns {
		for _, s := range spans {
			perTurn[s] = append(perTurn[s], t.spans[s])
		}
		for name := range t.activity {
			if !slices.Contains(types, name) {
				types = append(types, name)
			}
		}
	}
	slices.Sort(types)
	rows := slices.Clone(spans)
	for _, name := range types {
		row := "  activity " + name
		rows = append(rows, row)
		for _, t := range turns {
			perTurn[row] = append(perTurn[row], t.activity[name])
		}
	}
	printTable(w, "where a turn's time goes in Temporal", rows, perTurn)
	fmt.Fprintf(w, "the ChatTurn's commands: %s\n", strings.Join(turns[0].shape, ", "))
}

// printTable writes the p50 and p99 of each row's durations, in the order of rows.
func printTable(w io.Writer, title string, rows []string, d map[string][]time.Duration) {
	fmt.Fprintf(w, "\n%-40s %9s %9s\n", title, "p50 ms", "p99 ms")
	for _, r := range rows {
		sorted := slices.Clone(d[r])
		slices.Sort(sorted)
		fmt.Fprintf(w, "%-40s %9.1f %9.1f\n", r, ms(sorted[len(sorted)/2]), ms(sorted[len(sorted)*99/100]))
	}
}
