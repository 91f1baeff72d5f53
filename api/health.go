package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/sdk/client"
)

// health reports whether Temporal and the store answer.
func (h *Handlers) health(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	res := map[string]string{"status": "ok", "temporal": "ok", "store": "ok"}
	code := http.StatusOK
	if _, err := h.Temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		res["temporal"], res["status"], code = err.Error(), "unavailable", http.StatusServiceUnavailable
	}
	if err := h.Store.Ping(ctx); err != nil {
		res["store"], res["status"], code = err.Error(), "unavailable", http.StatusServiceUnavailable
	}
	return c.JSON(code, res)
}
