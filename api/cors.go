package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// corsHeaders are the request headers a page on another origin may send: its bearer
// token, JSON, an idempotency key, and a stream's place.
var corsHeaders = []string{echo.HeaderAuthorization, echo.HeaderContentType, echo.HeaderAccept, "Idempotency-Key", "Last-Event-ID"}

// corsExposed are the response headers such a page may read.
var corsExposed = []string{echo.HeaderLocation, echo.HeaderRetryAfter, echo.HeaderXRequestID}

// cors lets pages of origins (LEXFLOW_CORS_ORIGINS) call the /v1 API from the browser
// (AIR Coach's frontend, seed 002), answering their preflight before authentication,
// which a preflight carries no token for. It sends no credentials header, since the
// API takes bearer tokens, not cookies; and it never answers for the codec routes or
// the codec session, whose cookie only the Temporal Web UI's origin may use. Other
// origins get no CORS headers, so their browsers keep the answers from their pages.
func cors(origins []string) echo.MiddlewareFunc {
	return middleware.CORSWithConfig(middleware.CORSConfig{
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return len(origins) == 0 || !strings.HasPrefix(p, v1+"/") || strings.HasPrefix(p, v1+"/support/codec-session")
		},
		// Exact origins only: echo's AllowOrigins would read "*" and patterns too.
		AllowOriginFunc: func(origin string) (bool, error) { return slices.Contains(origins, origin), nil },
		AllowMethods:    []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
		AllowHeaders:    corsHeaders,
		ExposeHeaders:   corsExposed,
		MaxAge:          600,
	})
}
