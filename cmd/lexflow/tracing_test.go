package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/lexflow/lexflow/schemas"
)

// span is what the test's OTLP receiver keeps of a span.
type span struct {
	service, name string
	trace, parent string
}

// otlpReceiver is an OTLP/HTTP trace receiver: POST /v1/traces with a protobuf
// ExportTraceServiceRequest, as an OpenTelemetry collector takes it.
type otlpReceiver struct {
	mu      sync.Mutex
	spans   []span
	changed chan struct{}
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	var export coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(body, &export)
	}
	if req.URL.Path != "/v1/traces" || err != nil {
		http.Error(w, "not an OTLP trace export", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	for _, rs := range export.GetResourceSpans() {
		service := ""
		for _, a := range rs.GetResource().GetAttributes() {
			if a.GetKey() == "service.name" {
				service = a.GetValue().GetStringValue()
			}
		}
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				r.spans = append(r.spans, span{service: service, name: s.GetName(), trace: string(s.GetTraceId()), parent: string(s.GetParentSpanId())})
			}
		}
	}
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// traceWith returns the spans of the first trace that has a span of each service and
// name in want ("service name"), and whether there is one.
func (r *otlpReceiver) traceWith(want []string) ([]span, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	byTrace := map[string][]span{}
	for _, s := range r.spans {
		byTrace[s.trace] = append(byTrace[s.trace], s)
	}
	for _, spans := range byTrace {
		all := true
		for _, w := range want {
			found := false
			for _, s := range spans {
				found = found || s.service+" "+s.name == w
			}
			all = all && found
		}
		if all {
			return spans, true
		}
	}
	return nil, false
}

// TestOneTraceFromRequestToActivity sends one message through `lexflow api` and
// `lexflow worker` as two processes that export traces over OTLP to a receiver of
// the test's, and finds one trace with the API's request, the update it sent, the
// ChatTurn workflow and a tool's activity.
func TestOneTraceFromRequestToActivity(t *testing.T) {
	recv := &otlpReceiver{changed: make(chan struct{}, 1)}
	collector := httptest.NewServer(recv)
	defer collector.Close()
	p := startSeparate(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL, "OTEL_BSP_SCHEDULE_DELAY=50")
	user, admin := p.token(t, "--sub", "tess", "--org", "traces"), p.token(t, "--sub", "root", "--role", "admin", "--operator")
	p.call(t, "PUT", "/v1/admin/subscriptions/org:traces", admin, map[string]any{"plan": "firm", "credits": map[string]int{"1": 5, "2": 5, "3": 5}})
	id := p.call(t, "POST", "/v1/cases", user, map[string]any{"description": "Neighbour's tree damaged my roof", "language": "en"})["case_id"].(string)
	p.call(t, "POST", "/v1/cases/"+id+"/messages", user, map[string]any{"message": "show me the case details"})

	want := []string{
		"lexflow-api POST /v1/cases/:id/messages",
		"lexflow-api UpdateWorkflow:" + schemas.UpdateSendMessage,
		"lexflow-worker RunWorkflow:ChatTurn",
		"lexflow-worker RunActivity:RunTool",
	}
	deadline := time.After(30 * time.Second)
	for {
		spans, ok := recv.traceWith(want)
		if ok {
			roots := 0
			for _, s := range spans {
				if s.parent == "" {
					roots++
				}
			}
			if roots != 1 {
				t.Errorf("the trace has %d roots, want the API's request alone", roots)
			}
			return
		}
		select {
		case <-recv.changed:
		case <-deadline:
			recv.mu.Lock()
			var names []string
			for _, s := range recv.spans {
				names = append(names, s.service+" "+s.name)
			}
			recv.mu.Unlock()
			t.Fatalf("no trace with %v within 30 s; spans received:\n%s", want, strings.Join(names, "\n"))
		}
	}
}
