package api

import (
	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/lexflow/lexflow/internal/metrics"
)

// traceContext reads a caller's trace context from its request's traceparent header,
// which a request's span is linked to.
var traceContext = propagation.TraceContext{}

// traceRequests starts a server span for each request, named by its route's pattern.
// The span starts a trace of its own, linked to the caller's trace when the request
// carries a traceparent: a caller on the internet chooses neither the trace a request
// joins nor whether it is sampled. The handler's context carries the span, so the
// Temporal calls it makes (an update, a signal) join the trace through the client's
// tracing interceptor. Without h.Tracer it does nothing.
func (h *handlers) traceRequests(next echo.HandlerFunc) echo.HandlerFunc {
	if h.Tracer == nil {
		return next
	}
	return func(c echo.Context) error {
		req := c.Request()
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		method := metrics.Method(req.Method)
		opts := []trace.SpanStartOption{trace.WithNewRoot(), trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", method), attribute.String("http.route", route))}
		caller := trace.SpanContextFromContext(traceContext.Extract(req.Context(), propagation.HeaderCarrier(req.Header)))
		if caller.IsValid() {
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: caller}))
		}
		ctx, span := h.Tracer.Start(req.Context(), method+" "+route, opts...)
		defer span.End()
		c.SetRequest(req.WithContext(ctx))
		err := next(c)
		status := c.Response().Status
		if err != nil {
			status = toProblem(err).Status
		}
		span.SetAttributes(attribute.Int("http.response.status_code", status))
		if status >= 500 {
			span.SetStatus(codes.Error, "")
		}
		return err
	}
}
