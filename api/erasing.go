package api

import (
	"errors"
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// notErasing refuses a change to a case whose erasure has begun, saying what is
// refused ("it takes no documents"); it answers nil for a case with no erasure.
func (h *handlers) notErasing(c echo.Context, caseID, refused string) error {
	switch _, err := h.Store.GetErasure(c.Request().Context(), caseID); {
	case err == nil:
		return problemf(errErasing, "the case's erasure has begun: "+refused)
	case !errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%w: read the case's erasure: %w", errUnavailable, err)
	}
	return nil
}
