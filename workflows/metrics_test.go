package workflows

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/internal/metrics"
	"github.com/lexflow/lexflow/schemas"
)

// TestRecordTurnLabels: a turn's series carry its outcome, the tools the registry
// knows by name and any other as "unknown", and the rungs it reached.
func TestRecordTurnLabels(t *testing.T) {
	m, err := metrics.New()
	if err != nil {
		t.Fatal(err)
	}
	var s testsuite.WorkflowTestSuite
	s.SetMetricsHandler(m.Temporal)
	env := s.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		recordTurn(ctx, schemas.TurnResult{Steps: 3, ToolsUsed: []schemas.ToolUse{
			{Tool: "get_case_details", Status: schemas.ToolOK},
			{Tool: "exfiltrate_everything_4f2a", Status: schemas.ToolInvalid},
			{Tool: "kb_search", Status: "error", Rung: schemas.RungAdvice},
		}, Escalation: &schemas.Escalation{Rung: schemas.RungTicket}}, nil, 2*time.Second)
		return nil
	})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`outcome="completed"`, `tool="get_case_details"`, `tool="unknown"`, `rung="advice"`, `rung="ticket"`,
		"lexflow_turn_steps_total{", "lexflow_turn_latency_seconds_bucket{",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(string(body), "exfiltrate") {
		t.Error("/metrics has a series named after a tool the model made up")
	}
}
