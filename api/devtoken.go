package api

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// devTokenTTL is how long a token from POST /dev/token is valid.
const devTokenTTL = 8 * time.Hour

// DevTokenRequest is who a dev token is for; roles default to user.
type DevTokenRequest struct {
	Subject string   `json:"sub"`
	Org     string   `json:"org"`
	Roles   []string `json:"roles"`
}

// DevToken is a minted dev token.
type DevToken struct {
	Token     string        `json:"token"`
	ExpiresAt time.Time     `json:"expires_at"`
	Identity  auth.Identity `json:"identity"`
}

// devName is what a dev token's subject and organization may be.
var devName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`)

// devToken mints an HS256 token for the identity asked, as `lexflow token` does: the
// web app's sign-in form under `lexflow dev`. The route exists only in dev mode, and
// even there it answers only a request from this machine, addressed to it by a
// loopback name, with a JSON body: an API bound to all interfaces does not mint tokens
// for the network, and a web page elsewhere cannot get one through DNS rebinding or a
// form post.
func (h *handlers) devToken(c echo.Context) error {
	if h.DevTokens == nil {
		return problemf(errUnavailable, "this API mints no dev tokens")
	}
	if !fromLoopback(c.Request()) {
		return problemf(errForbidden, "dev tokens are minted only for requests from this machine to localhost, 127.0.0.1 or [::1]")
	}
	if mt, _, _ := mime.ParseMediaType(c.Request().Header.Get("Content-Type")); mt != "application/json" {
		return problemf(errInvalidInput, "send the identity as application/json")
	}
	var req DevTokenRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if !devName.MatchString(req.Subject) || req.Org != "" && !devName.MatchString(req.Org) {
		return problemf(errInvalidInput, "sub (required) and org are 1 to 64 letters, digits and . _ @ -, starting with a letter or digit")
	}
	if len(req.Roles) == 0 {
		req.Roles = []string{schemas.RoleUser}
	}
	for _, r := range req.Roles {
		if !slices.Contains(schemas.TokenRoles, r) {
			return problemf(errInvalidInput, fmt.Sprintf("roles are %s", strings.Join(schemas.TokenRoles, ", ")))
		}
	}
	slices.Sort(req.Roles)
	id := auth.Identity{Subject: req.Subject, Org: req.Org, Roles: slices.Compact(req.Roles)}
	// The sign-in form's staff without an organization are the operator's, which
	// the token then says (its operator claim).
	id.Operator = id.Org == "" && id.Staff()
	expires := time.Now().Add(devTokenTTL).Truncate(time.Second).UTC() // the token's exp is no earlier
	tok, err := h.DevTokens.Mint(id, devTokenTTL)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, DevToken{Token: tok, ExpiresAt: expires, Identity: id})
}

// fromLoopback reports whether r came from a loopback address and names a loopback
// host.
func fromLoopback(r *http.Request) bool {
	remote, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	if ip, err := netip.ParseAddr(remote); err != nil || !ip.Unmap().IsLoopback() {
		return false
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}
