package api

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/notifytext"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// NotificationSettingsView answers the notification settings routes: the channels,
// language and time zone the caller chose (empty: each case's language, and that
// language's zone, TimeZoneUsed), their verified address and the one waiting for its
// code, and whether this server sends e-mail at all.
type NotificationSettingsView struct {
	Channels        []string  `json:"channels"`
	Language        string    `json:"language"`
	TimeZone        string    `json:"time_zone"`
	TimeZoneUsed    string    `json:"time_zone_used"`
	Email           string    `json:"email,omitempty"`
	EmailVerifiedAt time.Time `json:"email_verified_at,omitzero"`
	PendingEmail    string    `json:"pending_email,omitempty"`
	PendingExpires  time.Time `json:"pending_expires_at,omitzero"`
	EmailAvailable  bool      `json:"email_available"`
}

// NotificationSettingsRequest is the body of PUT /v1/me/notifications/settings; a
// field left out is left as it is, an empty language or zone means the default.
type NotificationSettingsRequest struct {
	Channels *[]string `json:"channels"`
	Language *string   `json:"language"`
	TimeZone *string   `json:"time_zone"`
}

// settingsView shows ns to its owner.
func (h *handlers) settingsView(ns store.NotificationSettings) NotificationSettingsView {
	v := NotificationSettingsView{Channels: append([]string{}, ns.Channels...), Language: ns.Language, TimeZone: ns.TimeZone,
		TimeZoneUsed: ns.TimeZone, Email: ns.Email, EmailVerifiedAt: ns.EmailVerifiedAt, EmailAvailable: h.Mail != nil}
	if v.TimeZoneUsed == "" {
		v.TimeZoneUsed = notifytext.DefaultZone(cmp.Or(ns.Language, h.DefaultLanguage))
	}
	if ns.Pending != nil {
		v.PendingEmail, v.PendingExpires = ns.Pending.Address, ns.Pending.Expires
	}
	return v
}

// settings reads the caller's settings, the defaults when they stored none.
func (h *handlers) settings(c echo.Context) (store.NotificationSettings, error) {
	ns, err := store.SettingsOrDefaults(c.Request().Context(), h.Store, me(c))
	if err != nil {
		return ns, fmt.Errorf("%w: %w", errUnavailable, err)
	}
	return ns, nil
}

// getNotificationSettings answers the caller's settings.
func (h *handlers) getNotificationSettings(c echo.Context) error {
	ns, err := h.settings(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.settingsView(ns))
}

// putNotificationSettings changes the caller's channels, language or zone. The e-mail
// channel is refused while this server has no mail server, or the caller no verified
// address.
func (h *handlers) putNotificationSettings(c echo.Context) error {
	var req NotificationSettingsRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Language != nil && *req.Language != "" && !slices.Contains(schemas.Languages, *req.Language) {
		return problemf(errInvalidInput, "language is ro, it or en (empty: each case's)")
	}
	if req.TimeZone != nil && *req.TimeZone != "" {
		if _, err := time.LoadLocation(*req.TimeZone); err != nil || *req.TimeZone == "Local" {
			return problemf(errInvalidInput, fmt.Sprintf("time_zone %q is not an IANA time zone such as Europe/Bucharest", *req.TimeZone))
		}
	}
	channels := []string{}
	if req.Channels != nil {
		for _, ch := range *req.Channels {
			if ch != store.ChannelApp && ch != store.ChannelEmail {
				return problemf(errInvalidInput, "channels are email and app")
			}
			if !slices.Contains(channels, ch) {
				channels = append(channels, ch)
			}
		}
		if slices.Contains(channels, store.ChannelEmail) && h.Mail == nil {
			return problemf(errInvalidInput, "this server sends no e-mail (no mail server is configured), so the email channel cannot be turned on")
		}
	}
	var refusal error
	ns, err := h.Store.UpdateNotificationSettings(c.Request().Context(), me(c), func(ns *store.NotificationSettings) error {
		if req.Channels != nil {
			if slices.Contains(channels, store.ChannelEmail) && ns.Email == "" {
				refusal = problemf(errInvalidInput, "verify an e-mail address first (PUT /v1/me/notifications/email), then turn the email channel on")
				return refusal
			}
			ns.Channels = channels
		}
		if req.Language != nil {
			ns.Language = *req.Language
		}
		if req.TimeZone != nil {
			ns.TimeZone = *req.TimeZone
		}
		return nil
	})
	if refusal != nil {
		return refusal
	}
	if err != nil {
		return fmt.Errorf("%w: store notification settings: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, h.settingsView(ns))
}
