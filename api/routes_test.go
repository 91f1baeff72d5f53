package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// testServer is the API with no backends: the routes' auth answers before a handler
// would need one.
func testServer(table []Route, dev bool) (*echo.Echo, auth.HS256) {
	signer := auth.HS256{Secret: []byte("routes-test-secret-routes-test-secret"), Issuer: "lexflow-dev", Audience: "lexflow"}
	return newServer(&handlers{Auth: signer, Log: slog.New(slog.DiscardHandler), Dev: dev,
		WebhookSecret: []byte("whsec_routes_test")}, table), signer
}

// path fills a route's parameters with a well-formed case ID and names.
func path(r Route) string {
	p := strings.ReplaceAll(r.Path, ":id", "6f1c2b1e-8a0f-4a53-9a43-6c1f0e3d2b70")
	return strings.NewReplacer(":party", "party0", ":name", "Cerere", ":revision", "1").Replace(p)
}

// TestEveryRouteIsRegistered checks that the server in dev mode serves exactly the
// route table.
func TestEveryRouteIsRegistered(t *testing.T) {
	e, _ := testServer(routes, true)
	served := map[string]bool{}
	for _, r := range e.Routes() {
		served[r.Method+" "+r.Path] = true
	}
	for _, r := range routes {
		if !served[r.Method+" "+r.Path] {
			t.Errorf("%s %s is in the table but not served", r.Method, r.Path)
		}
	}
}

// TestRouteAuth sends every route of the table a request without a token and with
// tokens of each role: a route that needs a token answers 401 without one, one that
// needs a role answers 403 to tokens without it, and a webhook answers 400 to a request
// without the provider's signature, whatever token it carries.
func TestRouteAuth(t *testing.T) {
	e, signer := testServer(routes, false)
	tokens := map[string]string{}
	for _, role := range schemas.TokenRoles {
		tok, err := signer.Mint(auth.Identity{Subject: "someone", Roles: []string{role}, Operator: role != schemas.RoleUser}, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		tokens[role] = tok
	}
	for _, r := range routes {
		if r.Auth == Webhook {
			for _, tok := range append([]string{""}, tokens[schemas.RoleAdmin], tokens[schemas.RoleBilling]) {
				if got := serve(e, r, tok); got != http.StatusBadRequest {
					t.Errorf("%s %s unsigned: %d, want 400", r.Method, r.Path, got)
				}
			}
		}
		if r.Auth == Public || r.Auth == Webhook {
			continue
		}
		if got := serve(e, r, ""); got != http.StatusUnauthorized {
			t.Errorf("%s %s without a token: %d, want 401", r.Method, r.Path, got)
		}
		want, needs := roleOf[r.Auth]
		for role, tok := range tokens {
			if got := serve(e, r, tok); needs && role != want && got != http.StatusForbidden {
				t.Errorf("%s %s with a %s token: %d, want 403", r.Method, r.Path, role, got)
			}
		}
	}
}

// serve sends the route a request and returns the status; a handler that reaches for a
// missing backend panics, which the recover middleware answers with 500.
func serve(e *echo.Echo, r Route, tok string) int {
	req := httptest.NewRequest(r.Method, path(r), io.NopCloser(strings.NewReader(`{}`)))
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec.Code
}

// TestDevOnlyRoutes checks that a dev-only route exists only when the server runs in dev
// mode.
func TestDevOnlyRoutes(t *testing.T) {
	table := []Route{{http.MethodGet, "/v1/dev/ping", User, true, func(h *handlers, c echo.Context) error {
		return c.String(http.StatusOK, "pong")
	}}}
	for _, dev := range []bool{false, true} {
		e, signer := testServer(table, dev)
		tok, _ := signer.Mint(auth.Identity{Subject: "someone", Roles: []string{schemas.RoleUser}}, time.Hour)
		want := map[bool]int{false: http.StatusNotFound, true: http.StatusOK}[dev]
		if got := serve(e, table[0], tok); got != want {
			t.Errorf("dev=%v: %d, want %d", dev, got, want)
		}
	}
}

// TestTokenRoutesAreUnderV1 checks that newServer refuses a table whose token route is
// outside /v1, where authentication would not reach it.
func TestTokenRoutesAreUnderV1(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a user route outside /v1 was registered")
		}
	}()
	testServer([]Route{{http.MethodGet, "/cases", User, false, (*handlers).getCase}}, false)
}

// TestRequestRates sends requests past a user's rate and past their organization's:
// each answers 429 with Retry-After, and a user of another organization is not held
// back.
func TestRequestRates(t *testing.T) {
	signer := auth.HS256{Secret: []byte("routes-test-secret-routes-test-secret"), Issuer: "lexflow-dev", Audience: "lexflow"}
	e := newServer(&handlers{Auth: signer, Log: slog.New(slog.DiscardHandler), RequestsPerMinute: 12, OrgRequestsPerMinute: 18}, routes)
	tools := Route{Method: http.MethodGet, Path: "/v1/tools"}
	mint := func(sub, org string) string {
		tok, err := signer.Mint(auth.Identity{Subject: sub, Org: org, Roles: []string{schemas.RoleUser}}, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	ana, bo, cy := mint("ana", "acme"), mint("bo", "acme"), mint("ana", "globex")
	// A user's bucket holds ten seconds' worth, 2 requests; the organization's 3.
	for i, want := range []int{200, 200, 429} {
		if got := serve(e, tools, ana); got != want {
			t.Errorf("ana's request %d: %d, want %d", i+1, got, want)
		}
	}
	if got := serve(e, tools, bo); got != http.StatusOK {
		t.Errorf("bo's first request: %d, want 200 (acme has one left)", got)
	}
	req := httptest.NewRequest(http.MethodGet, "/v1/tools", nil)
	req.Header.Set("Authorization", "Bearer "+bo)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "too-many-requests") {
		t.Errorf("bo past acme's rate: %d, Retry-After %q, %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if got := serve(e, tools, cy); got != http.StatusOK {
		t.Errorf("globex's ana: %d, want 200", got)
	}
}
