package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/internal/health"
)

// Health answers GET /healthz.
type Health struct {
	Status string `json:"status"`
}

// health is the liveness check: the process serves requests. It asks nothing of the
// services the API depends on, so that an orchestrator does not restart every API
// process when one of those is down.
func (h *handlers) health(c echo.Context) error {
	return c.JSON(http.StatusOK, Health{Status: "ok"})
}

// ready is the readiness check: 200 while Temporal and the store answer, 503 naming
// the one that does not (see health.Readiness).
func (h *handlers) ready(c echo.Context) error {
	res, code := h.readiness.Check(c.Request().Context(), h.Log,
		health.Check{Name: "temporal", Ping: func(ctx context.Context) error {
			_, err := h.Temporal.CheckHealth(ctx, &client.CheckHealthRequest{})
			return err
		}},
		health.Check{Name: "store", Ping: h.Store.Ping})
	return c.JSON(code, res)
}
