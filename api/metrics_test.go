package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/internal/metrics"
)

// TestRequestMetricsByRoute: requests are counted by their route's pattern and a
// method HTTP defines, so an unknown path or a made-up method adds no series of its
// own.
func TestRequestMetricsByRoute(t *testing.T) {
	m, err := metrics.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(&handlers{Metrics: m, Log: slog.New(slog.DiscardHandler)}, routes)
	for _, path := range []string{"/healthz", "/healthz", "/no/such/path-1", "/no/such/path-2", "/v1/cases/abc"} {
		srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	for _, method := range []string{"FOO1", "FOO2"} {
		srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, "/healthz", nil))
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`lexflow_http_requests_total{method="GET",route="/healthz",status="200"} 2`,
		`lexflow_http_requests_total{method="GET",route="unmatched",status="404"} 2`,
		`lexflow_http_requests_total{method="GET",route="/v1/cases/:id",status="401"} 1`,
		`lexflow_http_request_duration_seconds_bucket{method="GET",route="/healthz",le="0.005"}`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(string(body), "path-1") || strings.Contains(string(body), "FOO1") {
		t.Error("/metrics has a series for an unknown path or method")
	}
	if !strings.Contains(string(body), `method="OTHER"`) {
		t.Error(`/metrics counts made-up methods under no method="OTHER"`)
	}
}
