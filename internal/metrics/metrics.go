// Package metrics is what a Lexflow process measures, served in Prometheus's text
// format: the API's requests and streamed events, the series that workflows and
// activities record through Temporal's metrics handler (schemas.Metric*), and the
// Temporal SDK's own, all in one registry with the Go runtime's.
package metrics

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
)

// secondBuckets are the histograms' buckets, in seconds: from a tool step's
// milliseconds to a turn's minutes.
var secondBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}

// Metrics is one process's registry and the instruments recorded into it.
type Metrics struct {
	registry *prometheus.Registry
	// Temporal is the handler to give the process's Temporal client: the SDK records
	// its own metrics into it, and workflows and activities theirs.
	Temporal client.MetricsHandler
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	events   prometheus.Counter
}

// New makes a process's registry.
func New() (*Metrics, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	exporter, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo())
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	// Timers record seconds: OpenTelemetry's default buckets, meant for milliseconds,
	// would put every turn and task in the first few.
	seconds := sdkmetric.NewView(sdkmetric.Instrument{Kind: sdkmetric.InstrumentKindHistogram, Unit: "s"},
		sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{Boundaries: secondBuckets}})
	meter := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter), sdkmetric.WithView(seconds)).Meter("lexflow")
	m := &Metrics{
		registry: reg,
		Temporal: temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{Meter: meter, UseMonotonicCounters: true,
			OnError: func(error) {}}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lexflow_http_requests_total",
			Help: "HTTP requests the API answered, by route, method and status."}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lexflow_http_request_duration_seconds",
			Help:    "How long the API took to answer, by route and method (a stream: until it ended).",
			Buckets: secondBuckets}, []string{"route", "method"}),
		events: prometheus.NewCounter(prometheus.CounterOpts{Name: "lexflow_events_streamed_total",
			Help: "Case events the API wrote to event streams."}),
	}
	reg.MustRegister(m.requests, m.latency, m.events)
	return m, nil
}

// Handler serves the registry in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// Request records one answered request: route is its route's pattern (not the path,
// whose IDs would make a series per case), or "unmatched"; the method is one of
// HTTP's own, or "OTHER" (see Method).
func (m *Metrics) Request(route, method string, status int, took time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unmatched"
	}
	method = Method(method)
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route, method).Observe(took.Seconds())
}

// Method is an HTTP method as a label: the method if HTTP defines it, else "OTHER".
// Go's server takes any token as a method, so a label of the raw method would let
// anyone add series without end.
func Method(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
		http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}

// EventStreamed records one event written to an event stream.
func (m *Metrics) EventStreamed() {
	if m != nil {
		m.events.Inc()
	}
}
