package api

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/ics"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// feedSecretBytes is how many random bytes a feed's secret has.
const feedSecretBytes = 32

// feedSecretLen is a secret's length in the URL: unpadded base64url of its bytes.
var feedSecretLen = base64.RawURLEncoding.EncodedLen(feedSecretBytes)

// FeedView answers POST /v1/me/feed: the URL of the caller's new calendar feed, which
// carries its secret; no route shows it again.
type FeedView struct {
	URL string `json:"url"`
}

// feedHash is what the store keeps of a feed's secret.
func feedHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// rotateFeed makes the caller a new feed secret, which replaces any earlier one, and
// answers the feed's URL.
func (h *handlers) rotateFeed(c echo.Context) error {
	raw := make([]byte, feedSecretBytes)
	if _, err := rand.Read(raw); err != nil {
		return fmt.Errorf("make feed secret: %w", err)
	}
	secret := base64.RawURLEncoding.EncodeToString(raw)
	if err := h.Store.PutFeed(c.Request().Context(), me(c), feedHash(secret)); err != nil {
		return fmt.Errorf("%w: store feed: %w", errUnavailable, err)
	}
	base := strings.TrimSuffix(h.PublicURL, "/")
	if base == "" {
		base = c.Scheme() + "://" + c.Request().Host
	}
	return c.JSON(http.StatusOK, FeedView{URL: base + "/v1/feeds/" + secret + ".ics"})
}

// deleteFeed turns the caller's feed off: its URL answers 404 from now on.
func (h *handlers) deleteFeed(c echo.Context) error {
	if err := h.Store.DeleteFeed(c.Request().Context(), me(c)); err != nil {
		return fmt.Errorf("%w: delete feed: %w", errUnavailable, err)
	}
	return c.NoContent(http.StatusNoContent)
}

// feedKinds are the neutral names of the deadlines' kinds in a feed.
var feedKinds = map[string]string{schemas.SourceCourtOrder: "Court order", schemas.SourceCommunication: "Communication",
	schemas.SourceHearing: "Hearing", schemas.SourceOther: "Deadline"}

// serveFeed answers GET /v1/feeds/{secret}.ics, with no token: the secret is the
// credential. It serves the owner's deadlines that are not cancelled as all-day
// events on their last day, each with one alarm per reminder, under neutral titles:
// the deadline's kind and its case's ID, never a name or the user's title. A secret
// that names no feed is 404, as a malformed one is.
func (h *handlers) serveFeed(c echo.Context) error {
	secret, ok := strings.CutSuffix(c.Param("file"), ".ics")
	if !ok || len(secret) != feedSecretLen || strings.Trim(secret, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		return problemf(store.ErrNotFound, "no such feed")
	}
	ctx := c.Request().Context()
	owner, err := h.Store.FeedOwner(ctx, feedHash(secret))
	if errors.Is(err, store.ErrNotFound) {
		return problemf(store.ErrNotFound, "no such feed")
	}
	if err != nil {
		return fmt.Errorf("%w: read feed: %w", errUnavailable, err)
	}
	ds, err := h.Store.UserDeadlines(ctx, owner, store.MaxUserDeadlines)
	if err != nil {
		return fmt.Errorf("%w: list deadlines: %w", errUnavailable, err)
	}
	var events []ics.Event
	for _, d := range ds {
		if d.Status == schemas.DeadlineCancelled {
			continue
		}
		day, err := time.Parse(time.DateOnly, d.Due)
		if err != nil {
			continue
		}
		e := ics.Event{UID: d.ID + "@lexflow", Stamp: d.UpdatedAt, Day: day,
			Summary:     fmt.Sprintf("%s: case %s (%s)", feedKinds[d.Source.Kind], d.CaseID, d.Status),
			Description: fmt.Sprintf("Ends at 24:00 %s. Deadline %s.", d.Zone, d.ID)}
		for _, r := range d.Reminders {
			offset, err := schemas.ParseReminder(r)
			switch {
			case err != nil:
			case offset == 0:
				e.Alarms = append(e.Alarms, ics.Alarm{At: schemas.MorningHour * time.Hour})
			default:
				e.Alarms = append(e.Alarms, ics.Alarm{Before: offset})
			}
		}
		events = append(events, e)
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "private, no-store")
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", []byte(ics.Write("Lexflow deadlines", events)))
}
