package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/deadline"
)

// computeDeadline answers POST /v1/deadlines/compute: the day a procedural term ends
// by the Romanian or Italian codes' rules, with each rule applied and each day stepped
// over (see docs/deadlines.md). Any signed-in user may ask; nothing is stored or run
// on a worker, as the computation is pure and bounded (at most 100 years, counted a
// day at a time). A request the rules cannot compute is 422 with what is wrong.
func (h *handlers) computeDeadline(c echo.Context) error {
	var req deadline.Request
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	answer, err := deadline.Compute(req)
	var invalid deadline.Invalid
	switch {
	case errors.As(err, &invalid):
		return problemf(errInvalidInput, invalid.Error())
	case err != nil:
		return fmt.Errorf("compute deadline: %w", err)
	}
	return c.JSON(http.StatusOK, answer)
}
