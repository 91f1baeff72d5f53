package bench_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// benchMessage makes a turn of two steps: get_case_details, then the stack.Answer.
const benchMessage = "show me the case details"

// benchSelection is what a user's request without toggles selects.
var benchSelection = schemas.Selection{Tools: []string{schemas.ToolGetCaseDetails, schemas.ToolUpdateCaseDetails}, UseMemory: true}

// turnsPerCase keeps the bench's cases short, below the suite's lowered
// continue-as-new threshold with the untimed first message benchTemporal sends each
// case, so that the figures are of turns alone.
const turnsPerCase = 3

// BenchmarkTurn runs chat turns with the offline model three ways: in-process (the
// tool loop calling the worker's activities directly, each doing all its work but
// through Temporal: see benchInProcess), the floor (a bare workflow of the
// same shape whose activities do nothing; see floorCase), and through Temporal (the
// Case workflow's send-message update, a ChatTurn child, an activity per step). It
// reports each one's turns per second and latency, for Temporal the overhead per loop
// step over the in-process median, (turn latency − in-process median turn latency) /
// steps, and the ratio the speed target bounds: Temporal's p50 over the floor's p50
// plus the in-process p50. Then it prints where the time went, step by step, in
// its last in-process and Temporal runs.
func BenchmarkTurn(b *testing.B) {
	ctx := context.Background()
	var baseline, floor time.Duration
	var inProcess, temporal strings.Builder
	defer func() { fmt.Print(inProcess.String(), temporal.String()) }()
	b.Run("in-process", func(b *testing.B) {
		cpu := startCPU(b)
		lat, steps, parts := benchInProcess(b, cpu, b.N)
		cpu.report(b)
		baseline = median(lat)
		report(b, lat)
		b.ReportMetric(float64(steps)/float64(b.N), "steps/turn")
		inProcess.Reset()
		printTable(&inProcess, "where an in-process turn's time goes", inProcessParts, parts)
	})
	b.Run("floor", func(b *testing.B) {
		shape, err := turnShape(ctx)
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		cpu := startCPU(b)
		lat, err := benchFloor(ctx, b.N, shape)
		if err != nil {
			b.Fatal(err)
		}
		cpu.report(b)
		floor = median(lat)
		report(b, lat)
	})
	b.Run("temporal", func(b *testing.B) {
		if baseline == 0 {
			lat, _, _ := benchInProcess(b, startCPU(b), 50)
			baseline = median(lat)
		}
		cpu := startCPU(b)
		lat, steps, times := benchTemporal(b, cpu, b.N)
		cpu.report(b)
		report(b, lat)
		overhead := make([]time.Duration, len(lat))
		for i, l := range lat {
			overhead[i] = (l - baseline) / time.Duration(steps[i])
		}
		slices.Sort(overhead)
		b.ReportMetric(ms(overhead[len(overhead)/2]), "p50-step-overhead-ms")
		b.ReportMetric(ms(overhead[len(overhead)*99/100]), "p99-step-overhead-ms")
		if floor > 0 {
			b.ReportMetric(float64(median(lat))/float64(floor+baseline), "p50/(floor+in-process)")
		}
		temporal.Reset()
		printBreakdown(&temporal, times)
	})
}

// turnShape runs one turn through Temporal, on a case of its own, and returns its
// ChatTurn's commands in order: the floor's shape.
func turnShape(ctx context.Context) ([]string, error) {
	caseID, _, err := startCase(ctx)
	if err != nil {
		return nil, err
	}
	defer s.TC.TerminateWorkflow(ctx, schemas.CaseWorkflowID(caseID), "", "bench: the shape is read")
	res, _, err := sendMessage(ctx, caseID)
	if err != nil {
		return nil, err
	}
	turn, err := historyOf(ctx, s.TC, res.TurnID)
	if err != nil {
		return nil, err
	}
	t, err := timeTurnEvents(turn)
	return t.shape, err
}

// startCase creates a case and starts its Case workflow, which goes active with the
// offline model's tiering, and returns the case's ID and the workflow's first run.
func startCase(ctx context.Context) (caseID, runID string, err error) {
	caseID = uuid.NewString()
	if _, err := s.Store.CreateCase(ctx, store.Case{ID: caseID, UserID: "bench", OrgID: "acme", Phase: schemas.PhaseTiering, Status: schemas.StatusOpen,
		Details: store.NewDetails("Benchmark case")}); err != nil {
		return "", "", err
	}
	run, err := s.TC.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: schemas.CaseWorkflowID(caseID), TaskQueue: stack.TaskQueue},
		schemas.CaseWorkflow, schemas.CaseInput{CaseID: caseID, UserID: "bench", OrgID: "acme", Language: "en", MaxSteps: schemas.DefaultMaxSteps,
			Description: "Benchmark: a question about a lease"})
	if err != nil {
		return "", "", err
	}
	return caseID, run.GetRunID(), nil
}

// sendMessage sends the bench's message to a case and returns the turn's result and
// the update's ID.
func sendMessage(ctx context.Context, caseID string) (schemas.TurnResult, string, error) {
	id := uuid.NewString()
	h, err := s.TC.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: schemas.CaseWorkflowID(caseID), UpdateName: schemas.UpdateSendMessage, UpdateID: id,
		Args: []any{schemas.SendMessageRequest{Message: benchMessage, Selection: benchSelection}}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	var res schemas.TurnResult
	if err == nil {
		err = h.Get(ctx, &res)
	}
	return res, id, err
}

// benchTemporal runs n turns through the Case workflow and returns each turn's latency,
// step count and breakdown, turnsPerCase turns on each case after an untimed first.
func benchTemporal(b *testing.B, cpu *cpuMeter, n int) ([]time.Duration, []int, []turnTimes) {
	ctx := context.Background()
	lat := make([]time.Duration, n)
	steps := make([]int, n)
	type sent struct {
		caseID, runID, updateID, turnID string
		at, answered                    time.Time
	}
	turns := make([]sent, n)
	var caseID, runID string
	b.ResetTimer()
	for i := range n {
		if i%turnsPerCase == 0 {
			untimed(b, cpu, func() (err error) {
				if caseID, runID, err = startCase(ctx); err != nil {
					return err
				}
				// The case's first message waits for its opening phases (tiering, the
				// quota), which are not a turn's work and which the floor's cases lack.
				_, _, err = sendMessage(ctx, caseID)
				return err
			})
		}
		start := time.Now()
		res, updateID, err := sendMessage(ctx, caseID)
		if err != nil {
			b.Fatal(err)
		}
		answered := time.Now()
		lat[i], steps[i] = answered.Sub(start), res.Steps
		turns[i] = sent{caseID, runID, updateID, res.TurnID, start, answered}
	}
	b.StopTimer()
	times := make([]turnTimes, n)
	cases := map[string][]*history.HistoryEvent{}
	for i, t := range turns {
		if cases[t.caseID] == nil {
			h, err := caseHistory(ctx, s.TC, schemas.CaseWorkflowID(t.caseID), t.runID)
			if err != nil {
				b.Fatal(err)
			}
			cases[t.caseID] = h
		}
		var err error
		if times[i], err = timeTurn(ctx, s.TC, cases[t.caseID], t.updateID, t.turnID, t.at, t.answered); err != nil {
			b.Fatal(err)
		}
	}
	return lat, steps, times
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

// cpuMeter adds up the CPU time the Temporal server and this process use while a run
// is timed: untimed work (opening the cases) is left out.
type cpuMeter struct {
	server, self     time.Duration // used while timed, up to the last pause
	serverAt, selfAt time.Duration // the counters when timing last resumed
}

// startCPU starts counting.
func startCPU(b *testing.B) *cpuMeter {
	c := &cpuMeter{}
	c.resume(b)
	return c
}

func (c *cpuMeter) resume(b *testing.B) { c.serverAt, c.selfAt = serverCPU(b), selfCPU(b) }

func (c *cpuMeter) pause(b *testing.B) {
	c.server += serverCPU(b) - c.serverAt
	c.self += selfCPU(b) - c.selfAt
}

// report stops counting and reports the CPU time per turn of the Temporal server and
// of this process: the worker, the embedded FerretDB, and the client. On two cores,
// two seconds of CPU a second are all there is, which bounds the turns per second
// that concurrent cases can reach.
func (c *cpuMeter) report(b *testing.B) {
	c.pause(b)
	b.ReportMetric(ms(c.server)/float64(b.N), "server-cpu-ms/turn")
	b.ReportMetric(ms(c.self)/float64(b.N), "worker-cpu-ms/turn")
}

// untimed runs f with the benchmark's timer and cpu's count stopped.
func untimed(b *testing.B, cpu *cpuMeter, f func() error) {
	b.StopTimer()
	cpu.pause(b)
	defer func() {
		cpu.resume(b)
		b.StartTimer()
	}()
	if err := f(); err != nil {
		b.Fatal(err)
	}
}

// serverCPU is the CPU time the Temporal server has used so far.
func serverCPU(b *testing.B) time.Duration {
	t, err := testenv.CPUTime(s.Temporal.Pid())
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// selfCPU is the CPU time this process has used so far.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(lat []time.Duration) time.Duration {
	sorted := slices.Clone(lat)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
