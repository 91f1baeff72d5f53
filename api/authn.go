package api

import (
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// identityKey is where authenticate leaves the caller's identity in the Echo context.
const identityKey = "identity"

// authenticate verifies the bearer token and records who is calling.
func (h *handlers) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		token, err := bearerToken(c)
		if err != nil {
			return err
		}
		id, err := h.verify(h.Auth, token)
		if err != nil {
			return err
		}
		c.Set(identityKey, id)
		return next(c)
	}
}

// bearerToken is the request's Authorization: Bearer token.
func bearerToken(c echo.Context) (string, error) {
	token, ok := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer ")
	if !ok || strings.TrimSpace(token) == "" {
		return "", problemf(auth.ErrUnauthorized, "send an Authorization: Bearer <token> header")
	}
	return strings.TrimSpace(token), nil
}

// verify returns the identity of token as v verifies it, a token without roles taken
// as a plain user's.
func (h *handlers) verify(v auth.Verifier, token string) (auth.Identity, error) {
	id, err := v.Verify(token)
	if err != nil {
		h.Log.Info("Token refused", "error", err)
		return auth.Identity{}, problemf(auth.ErrUnauthorized, "the token is invalid or expired")
	}
	id.Roles = rolesOrUser(id.Roles)
	return id, nil
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

// rolesOrUser treats a token without roles as a plain user's.
func rolesOrUser(roles []string) []string {
	if !slices.ContainsFunc(roles, func(r string) bool { return slices.Contains(schemas.TokenRoles, r) }) {
		return []string{schemas.RoleUser}
	}
	return roles
}
