// Package tracing exports a Lexflow process's traces over OTLP/HTTP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set: spans of the API's requests, and through
// Temporal's tracing interceptor those of the updates, signals and workflows they
// start and of every activity, in one trace.
package tracing

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// Tracing is a process's tracer provider and the Temporal interceptor that uses it.
type Tracing struct {
	// Provider makes the tracers of the process's own spans (the API's requests).
	Provider trace.TracerProvider
	// Interceptor, for the Temporal client's options, traces what the client starts
	// and, in a worker, the workflows and activities it runs; nil when not exporting.
	Interceptor interceptor.Interceptor
	shutdown    func(context.Context) error
}

// New sets up a process's tracing as service: when export is set, an OTLP/HTTP
// exporter, which the standard OTEL_EXPORTER_OTLP_* variables configure; else a
// tracer that records nothing, and no interceptor.
func New(ctx context.Context, export bool, service string) (*Tracing, error) {
	if !export {
		return &Tracing{Provider: noop.NewTracerProvider(), shutdown: func(context.Context) error { return nil }}, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	icpt, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: tp.Tracer("temporal")})
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	return &Tracing{Provider: tp, Interceptor: icpt, shutdown: tp.Shutdown}, nil
}

// Shutdown sends the spans not yet exported, until ctx ends.
func (t *Tracing) Shutdown(ctx context.Context) error { return t.shutdown(ctx) }
