package api

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/lexflow/lexflow/schemas"
)

// Auth is who may call a route.
type Auth string

// Route auths.
const (
	// Public routes need no token.
	Public Auth = "public"
	// User routes need a valid token; a caller reaches only their own cases.
	User Auth = "user"
	// Support routes need a token with the support role.
	Support Auth = "support"
	// Admin routes need a token with the admin role.
	Admin Auth = "admin"
	// Billing routes need a token with the billing role.
	Billing Auth = "billing"
	// Webhook routes need no token: the payment provider's signature authenticates
	// each request instead.
	Webhook Auth = "webhook"
	// Codec routes are the codec server's: support staff with a bearer token, or with
	// the codec cookie from the Temporal Web UI's origin.
	Codec Auth = "codec"
)

// Route is one route of the API: its method and path (Echo's syntax, ":id" for a
// parameter), who may call it, and whether it exists only in dev mode.
type Route struct {
	Method  string
	Path    string
	Auth    Auth
	DevOnly bool
	handle  func(*Handlers, echo.Context) error
}

// routes is the API's route table: every route is registered from it, and tests read
// it rather than keep lists of their own.
var routes = []Route{
	{http.MethodGet, "/healthz", Public, false, (*Handlers).health},
	{http.MethodGet, "/readyz", Public, false, (*Handlers).ready},
	{http.MethodGet, "/", Public, false, (*Handlers).appIndex},
	{http.MethodGet, "/app/config.json", Public, false, (*Handlers).appConfig},
	{http.MethodGet, "/app/*", Public, false, (*Handlers).appAsset},
	{http.MethodGet, "/v1/openapi.json", Public, false, (*Handlers).openapi},
	{http.MethodPost, "/v1/cases", User, false, (*Handlers).createCase},
	{http.MethodGet, "/v1/cases", User, false, (*Handlers).listCases},
	{http.MethodGet, "/v1/cases/:id", User, false, (*Handlers).getCase},
	{http.MethodDelete, "/v1/cases/:id", User, false, (*Handlers).eraseCase},
	{http.MethodGet, "/v1/cases/:id/erasure", User, false, (*Handlers).getErasure},
	{http.MethodPost, "/v1/cases/:id/messages", User, false, (*Handlers).sendMessage},
	{http.MethodGet, "/v1/cases/:id/messages", User, false, (*Handlers).listMessages},
	{http.MethodGet, "/v1/cases/:id/events", User, false, (*Handlers).caseEvents},
	{http.MethodPost, "/v1/cases/:id/turns/current/cancel", User, false, (*Handlers).cancelTurn},
	{http.MethodPost, "/v1/cases/:id/parties", User, false, (*Handlers).addParty},
	{http.MethodGet, "/v1/cases/:id/parties", User, false, (*Handlers).listParties},
	{http.MethodGet, "/v1/cases/:id/parties/:party", User, false, (*Handlers).getParty},
	{http.MethodPost, "/v1/cases/:id/payment", User, false, (*Handlers).paymentGone},
	{http.MethodGet, "/v1/cases/:id/price", User, false, (*Handlers).casePrice},
	{http.MethodPost, "/v1/cases/:id/checkout", User, false, (*Handlers).checkout},
	{http.MethodPost, "/v1/cases/:id/close", User, false, (*Handlers).closeCase},
	{http.MethodGet, "/v1/cases/:id/drafts", User, false, (*Handlers).listDrafts},
	{http.MethodGet, "/v1/cases/:id/drafts/:name/:revision", User, false, (*Handlers).downloadDraft},
	{http.MethodPost, "/v1/cases/:id/documents", User, false, (*Handlers).uploadDocument},
	{http.MethodGet, "/v1/cases/:id/documents", User, false, (*Handlers).listDocuments},
	{http.MethodGet, "/v1/cases/:id/documents/:doc", User, false, (*Handlers).downloadDocument},
	{http.MethodGet, "/v1/cases/:id/documents/:doc/text", User, false, (*Handlers).documentText},
	{http.MethodDelete, "/v1/cases/:id/documents/:doc", User, false, (*Handlers).deleteDocument},
	{http.MethodGet, "/v1/tools", User, false, (*Handlers).listTools},
	{http.MethodPost, "/v1/citations/check", User, false, (*Handlers).checkCitations},
	{http.MethodPost, "/v1/query", User, false, (*Handlers).query},
	{http.MethodGet, "/v1/me/memory", User, false, (*Handlers).getMemory},
	{http.MethodPut, "/v1/me/memory", User, false, (*Handlers).putMemory},
	{http.MethodGet, "/v1/support/cases", Support, false, (*Handlers).supportCases},
	{http.MethodGet, "/v1/support/cases/:id/tickets", Support, false, (*Handlers).supportTickets},
	{http.MethodGet, "/v1/support/cases/:id/messages", Support, false, (*Handlers).supportMessages},
	{http.MethodGet, "/v1/support/cases/:id/events", Support, false, (*Handlers).supportEvents},
	{http.MethodPost, "/v1/support/cases/:id/resume", Support, false, (*Handlers).resumeCase},
	{http.MethodPost, "/v1/support/codec-session", Support, false, (*Handlers).openCodecSession},
	{http.MethodDelete, "/v1/support/codec-session", Support, false, (*Handlers).closeCodecSession},
	{http.MethodPut, "/v1/admin/cases/:id/hold", Admin, false, (*Handlers).putHold},
	{http.MethodDelete, "/v1/admin/cases/:id/hold", Admin, false, (*Handlers).liftHold},
	{http.MethodPut, "/v1/admin/subscriptions/:id", Admin, false, (*Handlers).putSubscription},
	{http.MethodPost, "/v1/admin/prompts/reload", Admin, false, (*Handlers).reloadPrompts},
	{http.MethodGet, "/v1/admin/audit", Admin, false, (*Handlers).listAudit},
	{http.MethodPost, "/v1/admin/tools/execute", Admin, false, (*Handlers).executeTool},
	{http.MethodGet, "/v1/admin/budgets/:tenant", Admin, false, (*Handlers).getBudget},
	{http.MethodPut, "/v1/admin/budgets/:tenant", Admin, false, (*Handlers).putBudget},
	{http.MethodPost, "/v1/billing/cases/:id/payments", Billing, false, (*Handlers).recordOfflinePayment},
	{http.MethodPost, "/v1/webhooks/payments", Webhook, false, (*Handlers).paymentWebhook},
	{http.MethodPost, "/codec/decode", Codec, false, (*Handlers).codecDecode},
	{http.MethodPost, "/codec/encode", Codec, false, (*Handlers).codecEncode},
	{http.MethodOptions, "/codec/:op", Public, false, (*Handlers).codecPreflight},
	{http.MethodPost, "/dev/token", Public, true, (*Handlers).devToken},
	{http.MethodGet, "/pay/:session", Public, true, (*Handlers).testPayPage},
	{http.MethodPost, "/pay/:session", Public, true, (*Handlers).testPay},
}

// uploadPath is the path of document uploads.
var uploadPath = regexp.MustCompile(`^/v1/cases/[^/]+/documents/?$`)

// isUpload reports whether r uploads a document, whose body may be larger than
// maxBody (see readUpload).
func isUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && uploadPath.MatchString(r.URL.Path)
}

// Routes returns a copy of the route table, for the attack suite to walk.
func Routes() []Route { return slices.Clone(routes) }

// roleOf is the token role an auth requires beyond a valid token, if any.
var roleOf = map[Auth]string{Support: schemas.RoleSupport, Admin: schemas.RoleAdmin, Billing: schemas.RoleBilling}

// v1 prefixes every route that needs a token.
const v1 = "/v1"

// newServer returns the Echo server with the routes of table. Routes under /v1 go
// through authentication and the request-rate limits, and so do unknown paths there:
// without a token they answer 401, with one 404. A dev-only route is left out unless
// h.Dev is set.
func newServer(h *Handlers, table []Route) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(h.Log)
	// The codec's routes and uploads have limits of their own.
	bodyLimit := middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: maxBody,
		Skipper: func(c echo.Context) bool {
			return strings.HasPrefix(c.Request().URL.Path, codecPath+"/") || isUpload(c.Request())
		}})
	e.Use(middleware.Recover(), bodyLimit, h.traceRequests, h.logRequests)
	h.limits = rateLimits{perUser: h.RequestsPerMinute, perOrg: h.OrgRequestsPerMinute}
	h.uploading = make(chan struct{}, MaxUploads)
	h.openAPIBody = sync.OnceValues(func() ([]byte, error) { return openAPIJSON(table) })
	authed := e.Group(v1, h.authenticate, h.limitRequests)
	for _, r := range table {
		if r.DevOnly && !h.Dev {
			continue
		}
		handle := r.handle
		handler := func(c echo.Context) error { return handle(h, c) }
		switch r.Auth {
		case Public, Webhook:
			e.Add(r.Method, r.Path, handler)
			continue
		case Codec:
			// Not rate limited: the Web UI decodes a history one event at a time.
			e.Add(r.Method, r.Path, handler, middleware.BodyLimit(maxCodecBody), h.codecAuth, requireRole(schemas.RoleSupport))
			continue
		}
		path, ok := strings.CutPrefix(r.Path, v1)
		if !ok {
			panic(fmt.Sprintf("route %s %s needs a token but is not under %s", r.Method, r.Path, v1))
		}
		var mw []echo.MiddlewareFunc
		if role, ok := roleOf[r.Auth]; ok {
			mw = append(mw, requireRole(role))
		}
		authed.Add(r.Method, path, handler, mw...)
	}
	return e
}
