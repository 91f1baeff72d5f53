package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/tools"
	"github.com/lexflow/lexflow/worker"
	"github.com/lexflow/lexflow/workflows"
)

// The parts of an in-process turn, as benchInProcess times them.
const (
	partRecordUser = "record the user's message"
	partModel      = "model calls"
	partTool       = "tool calls"
	partCitations  = "citation check"
	partRecordTurn = "record the turn"
)

var inProcessParts = []string{partRecordUser, partModel, partTool, partCitations, partRecordTurn}

// benchInProcess runs n turns without Temporal and returns each turn's latency, the
// total number of loop steps, and the time each turn spent in each of its parts. Its
// steps are the worker's own activity structs, each run as a ChatTurn's activity
// would be (activities.WithRun): they publish the turn's events, meter its model
// calls and keep its tool results as the activities do, so that what the turn costs
// through Temporal over this is what Temporal adds.
func benchInProcess(b *testing.B, cpu *cpuMeter, n int) ([]time.Duration, int, map[string][]time.Duration) {
	ctx := context.Background()
	models, stop, err := worker.Models(config.Config{ModelTimeout: 30 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	exec := &directExecutor{}
	var transcript *activities.Transcript
	var research *activities.Research
	for _, a := range worker.Activities(worker.Deps{Store: s.Store, Models: models, Prompts: s.Prompts, Corpus: s.Corpus,
		Blobs: s.Blobs, Budgets: s.Budgets, Keys: s.Keys}) {
		switch a := a.(type) {
		case *activities.Model:
			exec.model = a
		case *activities.ToolRunner:
			exec.tools = a
		case *activities.Transcript:
			transcript = a
		case *activities.Research:
			research = a
		}
	}
	var caseID string
	lat := make([]time.Duration, n)
	parts := map[string][]time.Duration{}
	timed := func(part string, f func() error) {
		start := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		parts[part][len(parts[part])-1] += time.Since(start)
	}
	steps := 0
	b.ResetTimer()
	for i := range n {
		if i%turnsPerCase == 0 {
			untimed(b, cpu, func() error {
				caseID = uuid.NewString()
				_, err := s.Store.CreateCase(ctx, store.Case{ID: caseID, UserID: "bench", Phase: schemas.PhaseActive, Status: schemas.StatusOpen,
					Details: store.NewDetails("Benchmark case")})
				return err
			})
		}
		for _, p := range inProcessParts {
			parts[p] = append(parts[p], 0)
		}
		turnNo := i%turnsPerCase + 1
		in := schemas.ChatTurnInput{CaseID: caseID, UserID: "bench", TurnID: schemas.TurnWorkflowID(caseID, turnNo), TurnNo: turnNo,
			Message: benchMessage, Language: "en", MaxSteps: schemas.DefaultMaxSteps, Selection: benchSelection}
		exec.start(ctx, in, parts)
		start := time.Now()
		timed(partRecordUser, func() error {
			return transcript.RecordUserMessage(exec.step(), schemas.RecordUserMessage{CaseID: caseID, UserID: "bench", TurnID: in.TurnID, TurnNo: turnNo, Message: in.Message, At: start})
		})
		res, err := workflows.RunTurn(in, exec)
		if err != nil {
			b.Fatal(err)
		}
		timed(partCitations, func() error {
			checked, err := research.CheckCitations(exec.step(), schemas.CheckCitations{Reply: res.Reply, Language: in.Language})
			res.Reply, res.Citations = checked.Reply, checked.Citations
			return err
		})
		timed(partRecordTurn, func() error {
			return transcript.RecordTurn(exec.step(), schemas.RecordTurn{CaseID: caseID, UserID: "bench", TurnNo: turnNo, Result: res, At: time.Now()})
		})
		lat[i] = time.Since(start)
		steps += res.Steps
	}
	return lat, steps, parts
}

// directExecutor runs a turn's steps by calling the activities' code in-process, each
// step as an activity of the turn's workflow.
type directExecutor struct {
	model *activities.Model
	tools *activities.ToolRunner
	ctx   context.Context
	in    schemas.ChatTurnInput
	// steps numbers the turn's steps, as the activities' IDs; calls its tool calls,
	// as the ChatTurn numbers their results.
	steps, calls int
	// parts is where it adds the current turn's model and tool calls' time.
	parts map[string][]time.Duration
}

// start begins turn in.
func (e *directExecutor) start(ctx context.Context, in schemas.ChatTurnInput, parts map[string][]time.Duration) {
	e.ctx, e.in, e.steps, e.calls, e.parts = ctx, in, 0, 0, parts
}

// step is the context of the turn's next step.
func (e *directExecutor) step() context.Context {
	e.steps++
	return activities.WithRun(e.ctx, e.in.TurnID, "in-process", fmt.Sprint(e.steps))
}

// add adds the time since start to the current turn's part.
func (e *directExecutor) add(part string, start time.Time) {
	e.parts[part][len(e.parts[part])-1] += time.Since(start)
}

func (e *directExecutor) Now() time.Time { return time.Now() }

func (e *directExecutor) Stopped() string { return "" }

func (e *directExecutor) Timeout() time.Duration { return 0 }

func (e *directExecutor) CallModel(req schemas.ModelRequest) (schemas.ModelResponse, error) {
	defer e.add(partModel, time.Now())
	return e.model.CallModel(e.step(), req)
}

func (e *directExecutor) Consult(args schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
	return e.model.ConsultReasoner(e.step(), args)
}

func (e *directExecutor) OpenTicket(in schemas.SupportTicketInput) (schemas.TicketResult, error) {
	return schemas.TicketResult{}, fmt.Errorf("tickets are not opened in-process")
}

// Escalated and SourceFailed keep nothing: the in-process loop measures the turn, not
// the records support reads after it.
func (e *directExecutor) Escalated(schemas.EscalationAttempt) {}

func (e *directExecutor) SourceFailed(string, string) {}

// RunTool runs an activity's tool through the ToolRunner, as the ChatTurn does.
func (e *directExecutor) RunTool(tool *tools.Tool, args any) (schemas.ToolOutput, error) {
	defer e.add(partTool, time.Now())
	if tool.Workflow != "" {
		return schemas.ToolOutput{}, fmt.Errorf("tool %s is a workflow, not run in-process", tool.Name)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	e.calls++
	return e.tools.RunTool(e.step(), schemas.RunToolInput{Tool: tool.Name, Args: raw,
		ResultKey: schemas.ToolResultKey(e.in.CaseID, e.in.TurnNo, e.calls, tool.Name)})
}
