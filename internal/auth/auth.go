// Package auth mints and verifies the API's bearer tokens: HS256 JWTs whose claims name
// the user (sub), their organization (org) and their roles (schemas.TokenRoles).
package auth

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/lexflow/lexflow/schemas"
)

// Identity is who a verified token speaks for.
type Identity struct {
	Subject string   `json:"sub"`
	Org     string   `json:"org,omitempty"`
	Roles   []string `json:"roles"`
	// Operator marks the operator's own staff, who act on every tenant; they have no
	// Org. A staff identity (Staff) names its scope: an Org, or Operator.
	Operator bool `json:"operator,omitempty"`
	// Expires is when the verified token expires (its exp); zero for an identity no
	// token carried. What a token opened (an event stream, a codec cookie) ends then.
	Expires time.Time `json:"-"`
}

// Has reports whether the identity holds role.
func (id Identity) Has(role string) bool { return slices.Contains(id.Roles, role) }

// Staff reports whether the identity holds a role beside the user's.
func (id Identity) Staff() bool {
	return slices.ContainsFunc(id.Roles, func(r string) bool { return r != schemas.RoleUser })
}

// scopeError says what is wrong with id's scope, or is nil: staff name an
// organization or are the operator's, never both and never neither; only staff are
// the operator's. A staff token without an organization acted on every tenant
// before; it must now say so (issue 36, finding 8).
func scopeError(id Identity) error {
	switch {
	case id.Operator && id.Org != "":
		return errors.New("a token is the operator's (every tenant) or an organization's, not both")
	case id.Operator && !id.Staff():
		return errors.New("only staff roles act as the operator's")
	case id.Staff() && !id.Operator && id.Org == "":
		return errors.New("a staff token names its scope: an organization, or the operator's (every tenant)")
	}
	return nil
}

// claims is the token body; Operator is the "operator" claim, true on the operator's
// staff's tokens.
type claims struct {
	Org      string   `json:"org,omitempty"`
	Roles    []string `json:"roles"`
	Operator bool     `json:"operator,omitempty"`
	jwt.RegisteredClaims
}

// ErrUnauthorized wraps every reason a token is refused.
var ErrUnauthorized = errors.New("unauthorized")

// HS256 signs and verifies tokens with one shared secret, issuer and audience.
type HS256 struct {
	Secret   []byte
	Issuer   string
	Audience string
}

// Mint signs a token for id that expires after ttl; a staff identity must name its
// scope (see Identity.Operator).
func (h HS256) Mint(id Identity, ttl time.Duration) (string, error) {
	if id.Subject == "" {
		return "", errors.New("a token needs a subject")
	}
	for _, r := range id.Roles {
		if !slices.Contains(schemas.TokenRoles, r) {
			return "", fmt.Errorf("unknown role %q (want one of %s)", r, strings.Join(schemas.TokenRoles, ", "))
		}
	}
	if err := scopeError(id); err != nil {
		return "", err
	}
	now := time.Now()
	c := claims{Org: id.Org, Roles: id.Roles, Operator: id.Operator, RegisteredClaims: jwt.RegisteredClaims{
		Subject:   id.Subject,
		Issuer:    h.Issuer,
		Audience:  jwt.ClaimStrings{h.Audience},
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
	}}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(h.Secret)
}

// Verify checks a token's signature, algorithm, expiry, issuer and audience and returns
// its identity, refusing a staff token that names no scope (see Identity.Operator).
// Every failure wraps ErrUnauthorized.
func (h HS256) Verify(token string) (Identity, error) {
	var c claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return h.Secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(h.Issuer),
		jwt.WithAudience(h.Audience),
		jwt.WithExpirationRequired(),
	)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	if c.Subject == "" {
		return Identity{}, fmt.Errorf("%w: token has no subject", ErrUnauthorized)
	}
	id := Identity{Subject: c.Subject, Org: c.Org, Roles: c.Roles, Operator: c.Operator, Expires: c.ExpiresAt.Time}
	if err := scopeError(id); err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	return id, nil
}

// LoadOrCreateSecret returns the secret stored at path, generating a random one there,
// readable only by its owner, the first time.
func LoadOrCreateSecret(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err == nil {
		s := strings.TrimSpace(string(raw))
		if len(s) < 32 {
			return nil, fmt.Errorf("secret in %s is shorter than 32 characters", path)
		}
		return []byte(s), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	// The secret is written whole to a temporary file and linked into place, which
	// fails if another process linked its own first: no process ever reads a secret
	// half written.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	s := hex.EncodeToString(buf)
	_, err = f.WriteString(s + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if err := os.Link(f.Name(), path); errors.Is(err, os.ErrExist) {
		return LoadOrCreateSecret(path)
	} else if err != nil {
		return nil, err
	}
	return []byte(s), nil
}
