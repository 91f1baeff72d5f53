package api

import (
	"fmt"
	"net/http"
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
// web app's sign-in form under `lexflow dev`. The route exists only in dev mode, where
// whoever reaches the API could run `lexflow token` as well.
func (h *Handlers) devToken(c echo.Context) error {
	if h.DevTokens == nil {
		return problemf(errUnavailable, "this API mints no dev tokens")
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
	tok, err := h.DevTokens.Mint(id, devTokenTTL)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, DevToken{Token: tok, ExpiresAt: time.Now().Add(devTokenTTL).UTC(), Identity: id})
}
