package api

import (
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	urlpath "path"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/web"
)

// AppConfig is what the web app needs to know of this deployment: GET /app/config.json
// answers it, with Dev set when POST /dev/token can mint.
type AppConfig struct {
	// Dev says that POST /dev/token exists, for the sign-in form of `lexflow dev`.
	Dev bool `json:"dev"`
	// OIDC, when set, is the OpenID Provider the app signs people in with, by the
	// authorization-code flow with PKCE.
	OIDC *AppOIDC `json:"oidc,omitempty"`
	// TemporalUI is the Temporal Web UI's base URL, which support's case page links
	// to; empty means no link. Namespace is the cases' Temporal namespace.
	TemporalUI string `json:"temporal_ui,omitempty"`
	Namespace  string `json:"namespace"`
}

// AppOIDC is the web app's public client at an OpenID Provider.
type AppOIDC struct {
	Issuer   string `json:"issuer"`
	ClientID string `json:"client_id"`
	// Audience is the API's identifier at the provider, asked for as Auth0's audience
	// and, when it is an absolute URI, as RFC 8707's resource too, so that the access
	// token is a JWT for the API.
	Audience string `json:"audience"`
	Scope    string `json:"scope"`
	// RedirectURI is where the provider sends the browser back: the app at
	// LEXFLOW_PUBLIC_URL, which must be registered with the provider.
	RedirectURI string `json:"redirect_uri"`
	// RolesClaim and OrgClaim name the access token's claims that the API reads, so
	// that the app shows what the API will allow.
	RolesClaim            string `json:"roles_claim"`
	OrgClaim              string `json:"org_claim"`
	AuthorizationEndpoint string `json:"authorization_endpoint"`
	TokenEndpoint         string `json:"token_endpoint"`
}

// appHeaders are set on the web app's page, files and config: no framing, no sniffing,
// no referrer, and a content security policy that runs only the app's own scripts and
// lets it connect only to this API and the origin of the provider's token endpoint.
func (h *handlers) appHeaders(c echo.Context) {
	connect := "'self'"
	if h.App.OIDC != nil {
		if u, err := url.Parse(h.App.OIDC.TokenEndpoint); err == nil && u.Host != "" {
			connect += " " + u.Scheme + "://" + u.Host
		}
	}
	hd := c.Response().Header()
	hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "+
		"connect-src "+connect+"; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Cache-Control", "no-cache")
}

// appIndex serves the web app's page.
func (h *handlers) appIndex(c echo.Context) error {
	return h.appFile(c, "index.html")
}

// appAsset serves one of the app's files under /app/.
func (h *handlers) appAsset(c echo.Context) error {
	name := urlpath.Clean(c.Param("*"))
	if !fs.ValidPath(name) || name == "index.html" || strings.HasPrefix(name, ".") {
		return problemf(store.ErrNotFound, "no such file")
	}
	return h.appFile(c, name)
}

func (h *handlers) appFile(c echo.Context, name string) error {
	body, err := fs.ReadFile(web.Files(), name)
	if err != nil {
		return problemf(store.ErrNotFound, "no such file")
	}
	h.appHeaders(c)
	kind := mime.TypeByExtension(urlpath.Ext(name))
	if kind == "" {
		kind = "application/octet-stream"
	}
	return c.Blob(http.StatusOK, kind, body)
}

// appConfig answers the deployment's AppConfig.
func (h *handlers) appConfig(c echo.Context) error {
	cfg := h.App
	cfg.Dev = h.Dev && h.DevTokens != nil
	h.appHeaders(c)
	return c.JSON(http.StatusOK, cfg)
}
