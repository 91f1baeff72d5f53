package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/tools"
	"github.com/lexflow/lexflow/workflows"
)

// benchMessage makes a turn of two steps: get_case_details, then the stack.Answer.
const benchMessage = "show me the case details"

// benchSelection is what a user's request without toggles selects.
var benchSelection = schemas.Selection{Tools: []string{schemas.ToolGetCaseDetails, schemas.ToolUpdateCaseDetails}, UseMemory: true}

// turnsPerCase keeps the bench's cases short, below the suite's lowered
// continue-as-new threshold, so that the figures are of turns alone.
const turnsPerCase = 4

// BenchmarkTurn runs chat turns with the offline model, first in-process (the tool loop
// calling the activities' code directly) and then through Temporal (the Case workflow's
// send-message update, a ChatTurn child, an activity per step). It reports turns per
// second and, for Temporal, the overhead per loop step over the in-process median:
// (turn latency − in-process median turn latency) / steps.
func BenchmarkTurn(b *testing.B) {
	var baseline time.Duration
	b.Run("in-process", func(b *testing.B) {
		lat, steps := benchInProcess(b, b.N)
		baseline = median(lat)
		report(b, lat)
		b.ReportMetric(float64(steps)/float64(b.N), "steps/turn")
	})
	b.Run("temporal", func(b *testing.B) {
		if baseline == 0 {
			lat, _ := benchInProcess(b, 50)
			baseline = median(lat)
		}
		lat, steps := benchTemporal(b, b.N)
		report(b, lat)
		overhead := make([]time.Duration, len(lat))
		for i, l := range lat {
			overhead[i] = (l - baseline) / time.Duration(steps[i])
		}
		slices.Sort(overhead)
		b.ReportMetric(ms(overhead[len(overhead)/2]), "p50-step-overhead-ms")
		b.ReportMetric(ms(overhead[len(overhead)*99/100]), "p99-step-overhead-ms")
	})
}

// benchInProcess runs n turns without Temporal and returns each turn's latency and the
// total number of loop steps.
func benchInProcess(b *testing.B, n int) ([]time.Duration, int) {
	ctx := context.Background()
	models, stop, err := llm.Roles(config.Config{ModelTimeout: 30 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	exec := directExecutor{ctx: ctx, model: &activities.Model{Clients: models, Transcripts: s.Store, Memories: s.Store, Prompts: &activities.SystemPrompts{Library: s.Prompts, Versions: s.Store}}, cases: &activities.Cases{Store: s.Store}}
	transcript := &activities.Transcript{Store: s.Store}
	research := &activities.Research{Corpus: s.Corpus}
	var caseID string
	lat := make([]time.Duration, n)
	steps := 0
	b.ResetTimer()
	for i := range n {
		if i%turnsPerCase == 0 {
			b.StopTimer()
			caseID = uuid.NewString()
			if _, err := s.Store.CreateCase(ctx, store.Case{ID: caseID, UserID: "bench", Phase: schemas.PhaseActive, Status: schemas.StatusOpen,
				Details: store.NewDetails("Benchmark case")}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		turnNo := i%turnsPerCase + 1
		in := schemas.ChatTurnInput{CaseID: caseID, UserID: "bench", TurnID: schemas.TurnWorkflowID(caseID, turnNo), TurnNo: turnNo,
			Message: benchMessage, Language: "en", MaxSteps: schemas.DefaultMaxSteps, Selection: benchSelection}
		start := time.Now()
		if err := transcript.RecordUserMessage(ctx, schemas.RecordUserMessage{CaseID: caseID, UserID: "bench", TurnID: in.TurnID, TurnNo: turnNo, Message: in.Message, At: start}); err != nil {
			b.Fatal(err)
		}
		res, err := workflows.RunTurn(in, exec)
		if err != nil {
			b.Fatal(err)
		}
		checked, err := research.CheckCitations(ctx, schemas.CheckCitations{Reply: res.Reply, Language: in.Language})
		if err != nil {
			b.Fatal(err)
		}
		res.Reply, res.Citations = checked.Reply, checked.Citations
		if err := transcript.RecordTurn(ctx, schemas.RecordTurn{CaseID: caseID, UserID: "bench", TurnNo: turnNo, Result: res, At: time.Now()}); err != nil {
			b.Fatal(err)
		}
		lat[i] = time.Since(start)
		steps += res.Steps
	}
	return lat, steps
}

// benchTemporal runs n turns through the Case workflow and returns each turn's latency
// and step count.
func benchTemporal(b *testing.B, n int) ([]time.Duration, []int) {
	ctx := context.Background()
	lat := make([]time.Duration, n)
	steps := make([]int, n)
	var caseID string
	b.ResetTimer()
	for i := range n {
		if i%turnsPerCase == 0 {
			b.StopTimer()
			caseID = uuid.NewString()
			if _, err := s.Store.CreateCase(ctx, store.Case{ID: caseID, UserID: "bench", OrgID: "acme", Phase: schemas.PhaseTiering, Status: schemas.StatusOpen,
				Details: store.NewDetails("Benchmark case")}); err != nil {
				b.Fatal(err)
			}
			if _, err := s.TC.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: schemas.CaseWorkflowID(caseID), TaskQueue: stack.TaskQueue},
				schemas.CaseWorkflow, schemas.CaseInput{CaseID: caseID, UserID: "bench", OrgID: "acme", Language: "en", MaxSteps: schemas.DefaultMaxSteps,
					Description: "Benchmark: a question about a lease"}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		start := time.Now()
		h, err := s.TC.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
			WorkflowID: schemas.CaseWorkflowID(caseID), UpdateName: schemas.UpdateSendMessage,
			Args: []any{schemas.SendMessageRequest{Message: benchMessage, Selection: benchSelection}}, WaitForStage: client.WorkflowUpdateStageCompleted,
		})
		var res schemas.TurnResult
		if err == nil {
			err = h.Get(ctx, &res)
		}
		if err != nil {
			b.Fatal(err)
		}
		lat[i], steps[i] = time.Since(start), res.Steps
	}
	return lat, steps
}

// directExecutor runs a turn's steps by calling the activities' code in-process.
type directExecutor struct {
	ctx   context.Context
	model *activities.Model
	cases *activities.Cases
}

func (e directExecutor) Now() time.Time { return time.Now() }

func (e directExecutor) Stopped() string { return "" }

func (e directExecutor) Timeout() time.Duration { return 0 }

func (e directExecutor) StopsSteps() bool { return false }

func (e directExecutor) PausesForBudget() bool { return true }

func (e directExecutor) CallModel(req schemas.ModelRequest) (schemas.ModelResponse, error) {
	return e.model.CallModel(e.ctx, req)
}

func (e directExecutor) Consult(args schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
	return e.model.ConsultReasoner(e.ctx, args)
}

func (e directExecutor) OpenTicket(in schemas.SupportTicketInput) (schemas.TicketResult, error) {
	return schemas.TicketResult{}, fmt.Errorf("tickets are not opened in-process")
}

func (e directExecutor) RunTool(tool *tools.Tool, args any) (schemas.ToolOutput, error) {
	var out any
	var err error
	switch a := args.(type) {
	case schemas.GetCaseDetailsArgs:
		out, err = e.cases.GetCaseDetails(e.ctx, a)
	case schemas.UpdateCaseDetailsArgs:
		out, err = e.cases.UpdateCaseDetails(e.ctx, a)
	default:
		err = fmt.Errorf("tool %s is not run in-process", tool.Name)
	}
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	raw, err := json.Marshal(out)
	return workflows.Format(tool, raw), err
}

func report(b *testing.B, lat []time.Duration) {
	var total time.Duration
	for _, l := range lat {
		total += l
	}
	sorted := slices.Clone(lat)
	slices.Sort(sorted)
	b.ReportMetric(float64(len(lat))/total.Seconds(), "turns/s")
	b.ReportMetric(ms(sorted[len(sorted)/2]), "p50-turn-ms")
	b.ReportMetric(ms(sorted[len(sorted)*99/100]), "p99-turn-ms")
}

func median(lat []time.Duration) time.Duration {
	sorted := slices.Clone(lat)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
