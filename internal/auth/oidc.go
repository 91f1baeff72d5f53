package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"

	"github.com/lexflow/lexflow/schemas"
)

// OIDCOptions configure the verification of an OpenID Provider's tokens.
type OIDCOptions struct {
	// Issuer is the provider's issuer URL, the tokens' required iss; its discovery
	// document names the JWKS.
	Issuer string
	// Audience is the tokens' required aud.
	Audience string
	// RolesClaim and OrgClaim name the claims holding the roles (a list, or a
	// space-separated string) and the organization, such as Auth0's namespaced
	// "https://lexflow.example/roles".
	RolesClaim string
	OrgClaim   string
	// OperatorOrg is the organization claim that marks the operator's own staff, who
	// act on every tenant; their identity has no organization. A token with staff
	// roles but no organization claim keeps only the user role: a missing claim must
	// not read as "every tenant". Empty means no provider token is operator staff.
	OperatorOrg string
	// Leeway is the clock skew allowed on exp, nbf and iat.
	Leeway time.Duration
	// ClientID is the web app's client at the provider, if it has one. A token whose
	// aud names it is refused: an ID token's aud always holds the client it was
	// issued to (OpenID Connect Core 1.0, section 2), while an access token for the
	// API names the API (Audience), so an ID token never passes as an access token.
	ClientID string
	// HTTP fetches the discovery document and the JWKS; nil means a 10-second timeout.
	HTTP *http.Client
}

// OIDC verifies RS256 and ES256 tokens signed by the keys of an OpenID Provider's JWKS,
// fetched at start, refreshed hourly and, at most every 30 seconds, when a token names
// a key it does not know: the provider's key rotation.
type OIDC struct {
	opts      OIDCOptions
	keys      keyfunc.Keyfunc
	endpoints Endpoints
}

// Endpoints are where a browser signs in at the provider, from its discovery document.
type Endpoints struct {
	Authorization string `json:"authorization_endpoint"`
	Token         string `json:"token_endpoint"`
}

// JWKS refresh bounds: a token with an unknown kid fetches the JWKS again at most this
// often, and waits at most unknownKIDWait for it.
const (
	unknownKIDEvery = 30 * time.Second
	unknownKIDWait  = 2 * time.Second
	jwksRefresh     = time.Hour
)

// NewOIDC reads the issuer's discovery document and starts following its JWKS until
// ctx ends.
func NewOIDC(ctx context.Context, o OIDCOptions) (*OIDC, error) {
	if o.HTTP == nil {
		o.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	doc, err := discover(ctx, o.HTTP, o.Issuer)
	if err != nil {
		return nil, err
	}
	keys, err := keyfunc.NewDefaultOverrideCtx(ctx, []string{doc.JWKSURI}, keyfunc.Override{
		Client:            o.HTTP,
		HTTPTimeout:       o.HTTP.Timeout,
		RefreshInterval:   jwksRefresh,
		RefreshUnknownKID: rate.NewLimiter(rate.Every(unknownKIDEvery), 1),
		RateLimitWaitMax:  unknownKIDWait,
	})
	if err != nil {
		return nil, fmt.Errorf("JWKS of %s: %w", o.Issuer, err)
	}
	return &OIDC{opts: o, keys: keys, endpoints: doc.Endpoints}, nil
}

// Endpoints returns the provider's authorization and token endpoints.
func (v *OIDC) Endpoints() Endpoints { return v.endpoints }

// discovery is what Lexflow reads of a provider's discovery document.
type discovery struct {
	Issuer  string `json:"issuer"`
	JWKSURI string `json:"jwks_uri"`
	Endpoints
}

// discover reads the issuer's discovery document, which must name the same issuer and
// a JWKS.
func discover(ctx context.Context, c *http.Client, issuer string) (discovery, error) {
	var doc discovery
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(issuer, "/")+"/.well-known/openid-configuration", nil)
	if err != nil {
		return doc, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return doc, fmt.Errorf("OIDC discovery of %s: %w", issuer, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return doc, fmt.Errorf("OIDC discovery of %s: %s", issuer, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc); err != nil {
		return doc, fmt.Errorf("OIDC discovery of %s: %w", issuer, err)
	}
	if doc.Issuer != issuer || doc.JWKSURI == "" {
		return doc, fmt.Errorf("OIDC discovery of %s names issuer %q and JWKS %q", issuer, doc.Issuer, doc.JWKSURI)
	}
	return doc, nil
}

// Verify checks a token's signature against the JWKS (RS256 or ES256 only), its
// expiry, issuer and audience with the leeway, that it is no ID token of the web app
// (OIDCOptions.ClientID), and reads its identity: the subject,
// the roles Lexflow knows from the roles claim, and the organization claim (see
// OIDCOptions.OperatorOrg). Every failure wraps ErrUnauthorized.
func (v *OIDC) Verify(token string) (Identity, error) {
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, v.keys.Keyfunc,
		jwt.WithValidMethods([]string{jwt.SigningMethodRS256.Alg(), jwt.SigningMethodES256.Alg()}),
		jwt.WithIssuer(v.opts.Issuer),
		jwt.WithAudience(v.opts.Audience),
		jwt.WithLeeway(v.opts.Leeway),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
	)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	if aud, _ := claims.GetAudience(); v.opts.ClientID != "" && slices.Contains(aud, v.opts.ClientID) {
		return Identity{}, fmt.Errorf("%w: the token is addressed to the web app's client %s: an ID token, not an access token", ErrUnauthorized, v.opts.ClientID)
	}
	sub, _ := claims["sub"].(string)
	if sub == "" {
		return Identity{}, fmt.Errorf("%w: token has no subject", ErrUnauthorized)
	}
	org, _ := claims[v.opts.OrgClaim].(string)
	roles := knownRoles(claims[v.opts.RolesClaim])
	id := Identity{Subject: sub, Org: org, Roles: roles}
	switch {
	case org != "" && org == v.opts.OperatorOrg:
		id.Org, id.Operator = "", id.Staff()
	case org == "":
		id.Roles = slices.DeleteFunc(roles, func(r string) bool { return r != schemas.RoleUser })
	}
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return Identity{}, fmt.Errorf("%w: token has no expiry", ErrUnauthorized)
	}
	id.Expires = exp.Time.Add(v.opts.Leeway)
	return id, nil
}

// knownRoles reads a roles claim, a list or a space-separated string, keeping the
// roles Lexflow knows.
func knownRoles(claim any) []string {
	var all []string
	switch c := claim.(type) {
	case string:
		all = strings.Fields(c)
	case []any:
		for _, r := range c {
			if s, ok := r.(string); ok {
				all = append(all, s)
			}
		}
	}
	return slices.DeleteFunc(all, func(r string) bool { return !slices.Contains(schemas.TokenRoles, r) })
}
