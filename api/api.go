// Package api is Lexflow's REST API on Echo: it authenticates callers, starts and drives
// Case workflows, and reads cases and transcripts from the store.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/auth"
	"github.com/lexflow/lexflow/blob"
	"github.com/lexflow/lexflow/prompts"
	"github.com/lexflow/lexflow/store"
)

// Handlers serves the API.
type Handlers struct {
	Temporal client.Client
	Store    store.Store
	Auth     auth.HS256
	// Prompts is reloaded by POST /v1/admin/prompts/reload.
	Prompts   *prompts.Library
	TaskQueue string
	// MaxSteps bounds the tool loop of the cases this API starts.
	MaxSteps int
	// Unavailable are tools this deployment cannot serve (no SearXNG, say): they are
	// never selected for a turn and are listed as unavailable.
	Unavailable []string
	Log         *slog.Logger
	// Blobs serves the draft PDFs.
	Blobs blob.Store
	// UserWait is how long the cases this API starts wait for a client's answer to an
	// escalation; StuckAfter how long a case may work without progress before support
	// lists it as stuck.
	UserWait   time.Duration
	StuckAfter time.Duration
}

// maxBody bounds a request body; the longest valid message fits well inside it.
const maxBody = "256K"

// New returns the Echo server with every route.
func New(h *Handlers) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(h.Log)
	e.Use(middleware.Recover(), middleware.BodyLimit(maxBody), h.logRequests)

	e.GET("/healthz", h.health)
	v1 := e.Group("/v1", h.authenticate)
	v1.POST("/cases", h.createCase)
	v1.GET("/cases/:id", h.getCase)
	v1.POST("/cases/:id/messages", h.sendMessage)
	v1.GET("/cases/:id/messages", h.listMessages)
	v1.POST("/cases/:id/turns/current/cancel", h.cancelTurn)
	v1.POST("/cases/:id/parties", h.addParty)
	v1.GET("/cases/:id/parties", h.listParties)
	v1.GET("/cases/:id/parties/:party", h.getParty)
	v1.POST("/cases/:id/payment", h.confirmPayment)
	v1.POST("/cases/:id/close", h.closeCase)
	v1.GET("/cases/:id/drafts", h.listDrafts)
	v1.GET("/cases/:id/drafts/:name/:revision", h.downloadDraft)
	v1.GET("/support/cases", h.supportCases, requireRole(auth.RoleSupport))
	v1.GET("/support/cases/:id/tickets", h.supportTickets, requireRole(auth.RoleSupport))
	v1.POST("/support/cases/:id/resume", h.resumeCase, requireRole(auth.RoleSupport))
	v1.PUT("/admin/subscriptions/:id", h.putSubscription, requireRole(auth.RoleAdmin))
	v1.GET("/tools", h.listTools)
	v1.GET("/me/memory", h.getMemory)
	v1.PUT("/me/memory", h.putMemory)
	v1.POST("/admin/prompts/reload", h.reloadPrompts, requireRole(auth.RoleAdmin))
	return e
}

// identityKey is where authenticate leaves the caller's identity in the Echo context.
const identityKey = "identity"

// authenticate verifies the bearer token and records who is calling.
func (h *Handlers) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		header := c.Request().Header.Get(echo.HeaderAuthorization)
		token, ok := strings.CutPrefix(header, "Bearer ")
		if !ok || strings.TrimSpace(token) == "" {
			return problemf(auth.ErrUnauthorized, "send an Authorization: Bearer <token> header")
		}
		id, err := h.Auth.Verify(strings.TrimSpace(token))
		if err != nil {
			h.Log.Info("Token refused", "error", err)
			return problemf(auth.ErrUnauthorized, "the token is invalid or expired")
		}
		id.Roles = rolesOrUser(id.Roles)
		c.Set(identityKey, id)
		return next(c)
	}
}

// requireRole lets through only callers holding role; others get 403.
func requireRole(role string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !identity(c).Has(role) {
				return problemf(errForbidden, "this needs the "+role+" role")
			}
			return next(c)
		}
	}
}

func identity(c echo.Context) auth.Identity {
	id, _ := c.Get(identityKey).(auth.Identity)
	return id
}

func (h *Handlers) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		status := c.Response().Status
		if err != nil {
			status = toProblem(err).Status
		}
		h.Log.Info("Request", "method", c.Request().Method, "path", c.Request().URL.Path,
			"status", status, "ms", time.Since(start).Milliseconds())
		return err
	}
}

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
