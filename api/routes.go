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
	handle  func(*handlers, echo.Context) error
}

// routes is the API's route table: every route is registered from it, and tests read
// it rather than keep lists of their own.
var routes = []Route{
	{http.MethodGet, "/healthz", Public, false, (*handlers).health},
	{http.MethodGet, "/readyz", Public, false, (*handlers).ready},
	{http.MethodGet, "/", Public, false, (*handlers).appIndex},
	{http.MethodGet, "/app/config.json", Public, false, (*handlers).appConfig},
	{http.MethodGet, "/app/*", Public, false, (*handlers).appAsset},
	{http.MethodGet, "/v1/openapi.json", Public, false, (*handlers).openapi},
	{http.MethodPost, "/v1/cases", User, false, (*handlers).createCase},
	{http.MethodGet, "/v1/cases", User, false, (*handlers).listCases},
	{http.MethodGet, "/v1/cases/:id", User, false, (*handlers).getCase},
	{http.MethodDelete, "/v1/cases/:id", User, false, (*handlers).eraseCase},
	{http.MethodGet, "/v1/cases/:id/erasure", User, false, (*handlers).getErasure},
	{http.MethodPost, "/v1/cases/:id/messages", User, false, (*handlers).sendMessage},
	{http.MethodGet, "/v1/cases/:id/messages", User, false, (*handlers).listMessages},
	{http.MethodGet, "/v1/cases/:id/events", User, false, (*handlers).caseEvents},
	{http.MethodPost, "/v1/cases/:id/turns/current/cancel", User, false, (*handlers).cancelTurn},
	{http.MethodPost, "/v1/cases/:id/parties", User, false, (*handlers).addParty},
	{http.MethodGet, "/v1/cases/:id/parties", User, false, (*handlers).listParties},
	{http.MethodGet, "/v1/cases/:id/parties/:party", User, false, (*handlers).getParty},
	{http.MethodPost, "/v1/cases/:id/payment", User, false, (*handlers).paymentGone},
	{http.MethodGet, "/v1/cases/:id/price", User, false, (*handlers).casePrice},
	{http.MethodPost, "/v1/cases/:id/checkout", User, false, (*handlers).checkout},
	{http.MethodPost, "/v1/cases/:id/close", User, false, (*handlers).closeCase},
	{http.MethodGet, "/v1/cases/:id/drafts", User, false, (*handlers).listDrafts},
	{http.MethodGet, "/v1/cases/:id/drafts/:name/:revision", User, false, (*handlers).downloadDraft},
	{http.MethodGet, "/v1/cases/:id/timeline", User, false, (*handlers).downloadTimeline},
	{http.MethodPost, "/v1/cases/:id/documents", User, false, (*handlers).uploadDocument},
	{http.MethodGet, "/v1/cases/:id/documents", User, false, (*handlers).listDocuments},
	{http.MethodGet, "/v1/cases/:id/documents/:doc", User, false, (*handlers).downloadDocument},
	{http.MethodGet, "/v1/cases/:id/documents/:doc/text", User, false, (*handlers).documentText},
	{http.MethodDelete, "/v1/cases/:id/documents/:doc", User, false, (*handlers).deleteDocument},
	{http.MethodPost, "/v1/cases/:id/court-files", User, false, (*handlers).linkCourtFile},
	{http.MethodGet, "/v1/cases/:id/court-files", User, false, (*handlers).listCourtFiles},
	{http.MethodDelete, "/v1/cases/:id/court-files/:fid", User, false, (*handlers).unlinkCourtFile},
	{http.MethodGet, "/v1/tools", User, false, (*handlers).listTools},
	{http.MethodPost, "/v1/citations/check", User, false, (*handlers).checkCitations},
	{http.MethodPost, "/v1/query", User, false, (*handlers).query},
	{http.MethodPost, "/v1/chat", User, false, (*handlers).chat},
	{http.MethodPost, "/v1/deadlines/compute", User, false, (*handlers).computeDeadline},
	{http.MethodPost, "/v1/cases/:id/deadlines", User, false, (*handlers).createDeadline},
	{http.MethodGet, "/v1/cases/:id/deadlines", User, false, (*handlers).listDeadlines},
	{http.MethodGet, "/v1/cases/:id/deadlines/:did", User, false, (*handlers).getDeadline},
	{http.MethodPatch, "/v1/cases/:id/deadlines/:did", User, false, (*handlers).patchDeadline},
	{http.MethodDelete, "/v1/cases/:id/deadlines/:did", User, false, (*handlers).deleteDeadline},
	{http.MethodPost, "/v1/cases/:id/deadlines/:did/confirm", User, false, (*handlers).confirmDeadline},
	{http.MethodPost, "/v1/cases/:id/deadlines/:did/done", User, false, (*handlers).markDeadlineDone},
	{http.MethodGet, "/v1/me/deadlines", User, false, (*handlers).myDeadlines},
	{http.MethodPost, "/v1/me/feed", User, false, (*handlers).rotateFeed},
	{http.MethodDelete, "/v1/me/feed", User, false, (*handlers).deleteFeed},
	{http.MethodGet, "/v1/feeds/:file", Public, false, (*handlers).serveFeed},
	{http.MethodGet, "/v1/me/memory", User, false, (*handlers).getMemory},
	{http.MethodPut, "/v1/me/memory", User, false, (*handlers).putMemory},
	{http.MethodDelete, "/v1/me/memory", User, false, (*handlers).eraseMemory},
	{http.MethodGet, "/v1/me/memory/facts", User, false, (*handlers).listMemoryFacts},
	{http.MethodPost, "/v1/me/memory/facts/:id/approve", User, false, (*handlers).approveMemoryFact},
	{http.MethodPost, "/v1/me/memory/facts/:id/reject", User, false, (*handlers).rejectMemoryFact},
	{http.MethodPatch, "/v1/me/memory/facts/:id", User, false, (*handlers).editMemoryFact},
	{http.MethodDelete, "/v1/me/memory/facts/:id", User, false, (*handlers).deleteMemoryFact},
	{http.MethodDelete, "/v1/me/queries", User, false, (*handlers).eraseTenantTexts},
	{http.MethodGet, "/v1/me/notifications", User, false, (*handlers).listNotifications},
	{http.MethodDelete, "/v1/me/notifications", User, false, (*handlers).eraseNotifications},
	{http.MethodPost, "/v1/me/notifications/read", User, false, (*handlers).readAllNotifications},
	{http.MethodPost, "/v1/me/notifications/:id/read", User, false, (*handlers).readNotification},
	{http.MethodGet, "/v1/me/notifications/settings", User, false, (*handlers).getNotificationSettings},
	{http.MethodPut, "/v1/me/notifications/settings", User, false, (*handlers).putNotificationSettings},
	{http.MethodPut, "/v1/me/notifications/email", User, false, (*handlers).putEmail},
	{http.MethodDelete, "/v1/me/notifications/email", User, false, (*handlers).deleteEmail},
	{http.MethodPost, "/v1/me/notifications/email/verify", User, false, (*handlers).verifyEmail},
	{http.MethodGet, "/v1/support/cases", Support, false, (*handlers).supportCases},
	{http.MethodGet, "/v1/support/cases/:id", Support, false, (*handlers).supportCase},
	{http.MethodGet, "/v1/support/cases/:id/tickets", Support, false, (*handlers).supportTickets},
	{http.MethodGet, "/v1/support/cases/:id/messages", Support, false, (*handlers).supportMessages},
	{http.MethodGet, "/v1/support/cases/:id/events", Support, false, (*handlers).supportEvents},
	{http.MethodPost, "/v1/support/cases/:id/resume", Support, false, (*handlers).resumeCase},
	{http.MethodPost, "/v1/support/codec-session", Support, false, (*handlers).openCodecSession},
	{http.MethodDelete, "/v1/support/codec-session", Support, false, (*handlers).closeCodecSession},
	{http.MethodPut, "/v1/admin/cases/:id/hold", Admin, false, (*handlers).putHold},
	{http.MethodDelete, "/v1/admin/cases/:id/hold", Admin, false, (*handlers).liftHold},
	{http.MethodGet, "/v1/admin/cases/:id/context", Admin, false, (*handlers).caseContext},
	{http.MethodPut, "/v1/admin/subscriptions/:id", Admin, false, (*handlers).putSubscription},
	{http.MethodPost, "/v1/admin/prompts/reload", Admin, false, (*handlers).reloadPrompts},
	{http.MethodGet, "/v1/admin/audit", Admin, false, (*handlers).listAudit},
	{http.MethodPost, "/v1/admin/tools/execute", Admin, false, (*handlers).executeTool},
	{http.MethodGet, "/v1/admin/budgets/:tenant", Admin, false, (*handlers).getBudget},
	{http.MethodPut, "/v1/admin/budgets/:tenant", Admin, false, (*handlers).putBudget},
	{http.MethodGet, "/v1/admin/disclosures/:org", Admin, false, (*handlers).getDisclosure},
	{http.MethodPut, "/v1/admin/disclosures/:org", Admin, false, (*handlers).putDisclosure},
	{http.MethodPost, "/v1/billing/cases/:id/payments", Billing, false, (*handlers).recordOfflinePayment},
	{http.MethodPost, "/v1/webhooks/payments", Webhook, false, (*handlers).paymentWebhook},
	{http.MethodPost, "/codec/decode", Codec, false, (*handlers).codecDecode},
	{http.MethodPost, "/codec/encode", Codec, false, (*handlers).codecEncode},
	{http.MethodOptions, "/codec/:op", Public, false, (*handlers).codecPreflight},
	{http.MethodPost, "/dev/token", Public, true, (*handlers).devToken},
	{http.MethodGet, "/pay/:session", Public, true, (*handlers).testPayPage},
	{http.MethodPost, "/pay/:session", Public, true, (*handlers).testPay},
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
func newServer(h *handlers, table []Route) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(h.Log)
	e.Pre(cors(h.CORSOrigins))
	e.Pre(cors(h.CORSOrigins))
	// The codec's routes and uploads have limits of their own.
	bodyLimit := middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: maxBody,
		Skipper: func(c echo.Context) bool {
			return strings.HasPrefix(c.Request().URL.Path, codecPath+"/") || isUpload(c.Request())
		}})
	e.Use(middleware.Recover(), bodyLimit, h.traceRequests, h.logRequests)
	h.limits = rateLimits{perUser: h.RequestsPerMinute, perOrg: h.OrgRequestsPerMinute}
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
