package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// recordTurn records a finished turn's series (schemas.MetricTurns and the others)
// through the workflow's metrics handler, which records nothing while the workflow
// replays; it adds no command to the history.
func recordTurn(ctx workflow.Context, res schemas.TurnResult, err error, took time.Duration) {
	outcome := schemas.TurnCompleted
	switch {
	case err != nil && (temporal.IsCanceledError(err) || ctx.Err() != nil):
		outcome = schemas.TurnCancelled
	case err != nil:
		outcome = schemas.TurnFailed
	case res.Cancelled:
		outcome = schemas.TurnCancelled
	case res.TimedOut:
		outcome = schemas.TurnTimedOut
	case res.Budget != nil:
		outcome = schemas.TurnBudget
	}
	m := workflow.GetMetricsHandler(ctx)
	tagged := m.WithTags(map[string]string{"outcome": outcome})
	tagged.Counter(schemas.MetricTurns).Inc(1)
	tagged.Counter(schemas.MetricTurnSteps).Inc(int64(res.Steps))
	m.Timer(schemas.MetricTurnLatency).Record(took)
	for _, use := range res.ToolsUsed {
		// The name is the model's: a tool the registry does not know is "unknown", so
		// that a model steered into inventing names adds no series.
		name := use.Tool
		if _, ok := tools.Get(name); !ok {
			name = "unknown"
		}
		m.WithTags(map[string]string{"tool": name, "status": use.Status}).Counter(schemas.MetricToolCalls).Inc(1)
		if use.Rung != "" {
			m.WithTags(map[string]string{"rung": use.Rung}).Counter(schemas.MetricLadderRungs).Inc(1)
		}
	}
	if e := res.Escalation; e != nil && e.Rung != "" {
		m.WithTags(map[string]string{"rung": e.Rung}).Counter(schemas.MetricLadderRungs).Inc(1)
	}
}
