package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/sdk/client"
)

// unavailable is what /readyz says of a service that does not answer; the error itself,
// which may name hosts and credentials, goes to the log, not to anonymous callers.
const unavailable = "unavailable"

// health is the liveness check: the process serves requests. It asks nothing of the
// services the API depends on, so that an orchestrator does not restart every API
// process when one of those is down.
func (h *Handlers) health(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// ready is the readiness check: 200 while Temporal and the store answer, 503 naming
// the one that does not.
func (h *Handlers) ready(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	res := map[string]string{"status": "ok", "temporal": "ok", "store": "ok"}
	code := http.StatusOK
	down := func(service string, err error) {
		h.Log.Warn("Readiness check failed", "service", service, "error", err)
		res[service], res["status"], code = unavailable, unavailable, http.StatusServiceUnavailable
	}
	if _, err := h.Temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		down("temporal", err)
	}
	if err := h.Store.Ping(ctx); err != nil {
		down("store", err)
	}
	return c.JSON(code, res)
}
