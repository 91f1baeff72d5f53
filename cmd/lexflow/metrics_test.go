package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestSeparateProcessesServeMetrics runs turns through `lexflow api` and `lexflow
// worker` as two processes and reads what each serves on GET /metrics: the API its
// requests and streamed events, the worker its turns, steps, tool calls, ladder rungs
// and model tokens, and both the Temporal SDK's own series.
func TestSeparateProcessesServeMetrics(t *testing.T) {
	p := startSeparate(t)
	user, admin := p.token(t, "--sub", "mia", "--org", "metrics"), p.token(t, "--sub", "root", "--role", "admin", "--operator")
	p.call(t, "PUT", "/v1/admin/subscriptions/org:metrics", admin, map[string]any{"plan": "firm", "credits": map[string]int{"1": 5, "2": 5, "3": 5}})
	id := p.call(t, "POST", "/v1/cases", user, map[string]any{"description": "Neighbour's tree damaged my roof", "language": "en"})["case_id"].(string)
	for _, msg := range []string{"show me the case details", "fact: the storm was on 2 May"} {
		p.call(t, "POST", "/v1/cases/"+id+"/messages", user, map[string]any{"message": msg})
	}
	readStream(t, p.httpURL+"/v1/cases/"+id+"/events?after=0", user, 3)

	worker := scrape(t, p.opsURL+"/metrics")
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   func(float64) bool
	}{
		{"lexflow_turns_total", map[string]string{"outcome": "completed", "workflow_type": "ChatTurn"}, equal(2)},
		{"lexflow_turns_total", map[string]string{"outcome": "failed"}, equal(0)},
		{"lexflow_turn_latency_seconds", nil, equal(2)}, // a histogram: its count
		{"lexflow_turn_steps_total", map[string]string{"outcome": "completed"}, atLeast(4)},
		{"lexflow_tool_calls_total", map[string]string{"status": "ok", "tool": "get_case_details"}, equal(1)},
		{"lexflow_tool_calls_total", map[string]string{"status": "ok", "tool": "update_case_details"}, equal(1)},
		{"lexflow_ladder_rungs_total", nil, equal(0)},
		{"lexflow_model_tokens_total", map[string]string{"role": "assistant", "activity_type": "CallModel"}, atLeast(1)},
		{"temporal_workflow_completed_total", map[string]string{"workflow_type": "ChatTurn"}, equal(2)},
	} {
		checkSeries(t, "worker", worker, c.name, c.labels, c.want)
	}
	api := scrape(t, p.metricsURL+"/metrics")
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   func(float64) bool
	}{
		{"lexflow_http_requests_total", map[string]string{"method": "POST", "route": "/v1/cases/:id/messages", "status": "200"}, equal(2)},
		{"lexflow_http_requests_total", map[string]string{"method": "POST", "route": "/v1/cases", "status": "201"}, equal(1)},
		{"lexflow_http_request_duration_seconds", map[string]string{"method": "POST", "route": "/v1/cases/:id/messages"}, equal(2)},
		// The third event was read, so the first two were counted before it was written.
		{"lexflow_events_streamed_total", nil, atLeast(2)},
		{"temporal_request_total", nil, atLeast(1)},
	} {
		checkSeries(t, "API", api, c.name, c.labels, c.want)
	}
	checkDashboard(t, worker, api)
	if resp, err := http.Get(p.httpURL + "/metrics"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("the public API's GET /metrics = %v, %v; want 404: metrics are served on LEXFLOW_METRICS_ADDR only", resp, err)
	}
}

func equal(n float64) func(float64) bool   { return func(v float64) bool { return v == n } }
func atLeast(n float64) func(float64) bool { return func(v float64) bool { return v >= n } }

// dashboard is the Grafana dashboard built on the processes' metrics.
const dashboard = "../../deploy/grafana/lexflow.json"

// unprovoked are the metrics the dashboard graphs that the test's turns do not make
// appear: no ladder was climbed, no activity or request failed.
var unprovoked = []string{"lexflow_ladder_rungs_total", "temporal_activity_execution_failed_total", "temporal_request_failure_total"}

// checkDashboard fails t for each metric a query of the dashboard names that none of
// the scraped bodies has, but for those unprovoked.
func checkDashboard(t *testing.T, scraped ...string) {
	t.Helper()
	raw, err := os.ReadFile(dashboard)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s: %v", dashboard, err)
	}
	served := map[string]bool{}
	for _, body := range scraped {
		parser := expfmt.NewTextParser(model.UTF8Validation)
		families, err := parser.TextToMetricFamilies(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for name := range families {
			served[name] = true
		}
	}
	names := regexp.MustCompile(`\b(?:lexflow|temporal)_[a-z0-9_]+`)
	queries := 0
	for _, panel := range d.Panels {
		for _, target := range panel.Targets {
			queries++
			for _, name := range names.FindAllString(target.Expr, -1) {
				family := strings.TrimSuffix(name, "_bucket")
				if !served[family] && !slices.Contains(unprovoked, family) {
					t.Errorf("the dashboard's panel %q graphs %s, which neither process serves", panel.Title, name)
				}
			}
		}
	}
	if queries < 10 {
		t.Errorf("the dashboard has %d queries", queries)
	}
}

// checkSeries fails t unless the sum of the metric name's samples in the text
// exposition body whose labels include labels (a histogram's: their counts) is one
// want accepts. A metric with no samples sums to 0; a name body lacks fails.
func checkSeries(t *testing.T, who, body, name string, labels map[string]string, want func(float64) bool) {
	t.Helper()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("the %s's /metrics: %v", who, err)
	}
	family, ok := families[name]
	if !ok && !want(0) {
		t.Errorf("the %s's /metrics lacks %s", who, name)
		return
	}
	sum := 0.0
	for _, m := range family.GetMetric() {
		has := map[string]string{}
		for _, l := range m.GetLabel() {
			has[l.GetName()] = l.GetValue()
		}
		if !includes(has, labels) {
			continue
		}
		switch {
		case m.GetCounter() != nil:
			sum += m.GetCounter().GetValue()
		case m.GetHistogram() != nil:
			sum += float64(m.GetHistogram().GetSampleCount())
		}
	}
	if !want(sum) {
		t.Errorf("the %s's %s%v = %v", who, name, labels, sum)
	}
}

// includes reports whether has holds every label of want.
func includes(has, want map[string]string) bool {
	for k, v := range want {
		if has[k] != v {
			return false
		}
	}
	return true
}

// scrape reads a /metrics page.
func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %s", url, resp.Status, body)
	}
	return string(body)
}

// readStream opens a case's event stream and reads n events of it.
func readStream(t *testing.T, url, tok string, n int) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	for seen := 0; seen < n && lines.Scan(); {
		if strings.HasPrefix(lines.Text(), "id: ") {
			seen++
		}
	}
}
