package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// auditTimeline is a staff member's read of a case's timeline chart, whose labels
// are the case's data in clear.
const auditTimeline = "case.timeline.read"

// downloadTimeline serves a case's timeline chart (generate_image) to its owner, or to
// staff (support, admin) whose scope reaches the case, audited: the deadline routes'
// rule, deadlineCase. Anyone else, and a case without a chart, finds nothing.
func (h *handlers) downloadTimeline(c echo.Context) error {
	cs, err := h.deadlineCase(c)
	if err != nil {
		return err
	}
	if who := identity(c); cs.UserID != who.Subject || cs.OrgID != who.Org {
		if err := h.audit(c, auditTimeline, cs.OrgID, cs.ID, nil); err != nil {
			return err
		}
	}
	// The key comes from the route's case alone.
	r, err := h.Blobs.Open(c.Request().Context(), schemas.TimelinePath(cs.ID))
	if errors.Is(err, blob.ErrNotExist) {
		return problemf(store.ErrNotFound, "the case has no timeline yet: ask for one in the chat")
	}
	if err != nil {
		return fmt.Errorf("%w: open timeline: %w", errUnavailable, err)
	}
	defer r.Close()
	c.Response().Header().Set(echo.HeaderContentDisposition, attachment("timeline.png"))
	c.Response().Header().Set(echo.HeaderCacheControl, "private, no-store")
	return c.Stream(http.StatusOK, "image/png", r)
}
