package metrics_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/metrics"
	"github.com/lexflow/lexflow/schemas"
)

// scrape reads m's /metrics.
func scrape(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	return string(body)
}

// TestTemporalSeries: what workflows and activities record through the Temporal
// handler reaches the registry under Prometheus's names, timers in seconds.
func TestTemporalSeries(t *testing.T) {
	m, err := metrics.New()
	if err != nil {
		t.Fatal(err)
	}
	m.Temporal.WithTags(map[string]string{"tool": "kb_search", "status": "ok"}).Counter(schemas.MetricToolCalls).Inc(2)
	m.Temporal.Timer(schemas.MetricTurnLatency).Record(1500 * time.Millisecond)
	body := scrape(t, m)
	for _, want := range []string{
		`lexflow_tool_calls_total{status="ok",tool="kb_search"} 2`,
		`lexflow_turn_latency_seconds_bucket{le="2.5"} 1`,
		`go_goroutines `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if t.Failed() {
		t.Log(body)
	}
}
