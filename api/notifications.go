package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// Pages of GET /v1/me/notifications.
const (
	defaultNotificationsLimit = 20
	maxNotificationsLimit     = 100
)

// NotificationView is one of the caller's in-app notifications: what it is about,
// its texts in the caller's language, and when it was read (absent while unread).
type NotificationView struct {
	ID         string    `json:"id"`
	Kind       string    `json:"kind"`
	CaseID     string    `json:"case_id"`
	DeadlineID string    `json:"deadline_id,omitempty"`
	Due        time.Time `json:"due,omitzero"`
	Title      string    `json:"title"`
	Body       string    `json:"body"`
	CreatedAt  time.Time `json:"created_at"`
	ReadAt     time.Time `json:"read_at,omitzero"`
}

// NotificationList answers GET /v1/me/notifications: a page of the caller's
// notifications, newest first, how many of all theirs are unread, and the ID to ask
// the next page after (empty on the last page).
type NotificationList struct {
	Notifications []NotificationView `json:"notifications"`
	Unread        int                `json:"unread"`
	Next          string             `json:"next,omitempty"`
}

// UnreadCount answers the routes that mark notifications read.
type UnreadCount struct {
	Marked int `json:"marked"`
	Unread int `json:"unread"`
}

// listNotifications answers a page of the caller's notifications with the unread count.
func (h *handlers) listNotifications(c echo.Context) error {
	limit, err := pageLimit(c, defaultNotificationsLimit, maxNotificationsLimit)
	if err != nil {
		return err
	}
	ctx, owner := c.Request().Context(), me(c)
	list, err := h.Store.ListNotifications(ctx, owner, c.QueryParam("after"), limit+1) // one more: is there a next page?
	if errors.Is(err, store.ErrNotFound) {
		return problemf(errInvalidInput, "after is not one of your notifications")
	}
	if err != nil {
		return fmt.Errorf("%w: list notifications: %w", errUnavailable, err)
	}
	unread, err := h.Store.CountUnread(ctx, owner)
	if err != nil {
		return fmt.Errorf("%w: count unread notifications: %w", errUnavailable, err)
	}
	page := NotificationList{Notifications: make([]NotificationView, 0, min(len(list), limit)), Unread: unread}
	if len(list) > limit {
		list = list[:limit]
		page.Next = list[limit-1].ID
	}
	for _, n := range list {
		page.Notifications = append(page.Notifications, NotificationView{ID: n.ID, Kind: n.Kind, CaseID: n.CaseID,
			DeadlineID: n.DeadlineID, Due: n.Due, Title: n.Title, Body: n.Body, CreatedAt: n.CreatedAt, ReadAt: n.ReadAt})
	}
	return c.JSON(http.StatusOK, page)
}

// readNotification marks one of the caller's notifications read; another user's, or
// none, is 404.
func (h *handlers) readNotification(c echo.Context) error {
	ctx, owner := c.Request().Context(), me(c)
	err := h.Store.MarkNotificationRead(ctx, owner, c.Param("id"), h.now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return problemf(store.ErrNotFound, "no such notification")
	}
	if err != nil {
		return fmt.Errorf("%w: mark notification read: %w", errUnavailable, err)
	}
	return h.unreadAfter(c, 1)
}

// readAllNotifications marks every notification of the caller read.
func (h *handlers) readAllNotifications(c echo.Context) error {
	n, err := h.Store.MarkAllNotificationsRead(c.Request().Context(), me(c), h.now().UTC())
	if err != nil {
		return fmt.Errorf("%w: mark notifications read: %w", errUnavailable, err)
	}
	return h.unreadAfter(c, n)
}

// unreadAfter answers how many were marked and how many are left unread.
func (h *handlers) unreadAfter(c echo.Context, marked int) error {
	unread, err := h.Store.CountUnread(c.Request().Context(), me(c))
	if err != nil {
		return fmt.Errorf("%w: count unread notifications: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, UnreadCount{Marked: marked, Unread: unread})
}

// me is the caller's store.OwnerID: what "me" routes find their data by.
func me(c echo.Context) string {
	who := identity(c)
	return store.OwnerID(who.Org, who.Subject)
}
