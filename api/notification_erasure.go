package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// NotificationsErased answers DELETE /v1/me/notifications: how many notifications
// and send records were deleted, and the cases under a legal hold whose were kept.
type NotificationsErased struct {
	Erased int      `json:"erased"`
	Held   []string `json:"held_cases"`
}

// eraseNotifications deletes the caller's notification settings (their e-mail
// addresses with them), their calendar feed, their in-app notifications and the
// records of what was sent to them, except what is about a case under a legal hold,
// which the hold keeps as it keeps the rest of the case.
func (h *handlers) eraseNotifications(c echo.Context) error {
	ctx, owner := c.Request().Context(), me(c)
	cases, err := h.Store.NotifiedCases(ctx, owner)
	if err != nil {
		return fmt.Errorf("%w: find the notified cases: %w", errUnavailable, err)
	}
	held := []string{}
	for _, id := range cases {
		cs, err := h.Store.GetCase(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%w: read case %s: %w", errUnavailable, id, err)
		}
		if cs.Hold != nil {
			held = append(held, id)
		}
	}
	n, err := h.Store.EraseNotifications(ctx, owner, held)
	if err != nil {
		return fmt.Errorf("%w: erase notifications: %w", errUnavailable, err)
	}
	if err := h.Store.DeleteFeed(ctx, owner); err != nil {
		return fmt.Errorf("%w: turn the calendar feed off: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, NotificationsErased{Erased: n, Held: held})
}
