package api

import (
	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// traceContext reads a caller's trace context from its request's traceparent header.
var traceContext = propagation.TraceContext{}

// traceRequests starts a server span for each request, named by its route's pattern,
// as the child of the caller's trace if the request carries one. The handler's context
// carries the span, so the Temporal calls it makes (an update, a signal) join the
// trace through the client's tracing interceptor. Without h.Tracer it does nothing.
func (h *Handlers) traceRequests(next echo.HandlerFunc) echo.HandlerFunc {
	if h.Tracer == nil {
		return next
	}
	return func(c echo.Context) error {
		req := c.Request()
		ctx := traceContext.Extract(req.Context(), propagation.HeaderCarrier(req.Header))
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		ctx, span := h.Tracer.Start(ctx, req.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", req.Method), attribute.String("http.route", route)))
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
