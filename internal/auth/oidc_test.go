package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/schemas"
)

var providerClaims = map[string]any{"roles": []string{"user", "admin", "root"}, "org": "acme"}

func startProvider(t *testing.T, port int, kid string) *testenv.OIDCProvider {
	return startProviderWith(t, port, kid, providerClaims)
}

func startProviderWith(t *testing.T, port int, kid string, claims map[string]any) *testenv.OIDCProvider {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	p, err := testenv.StartOIDCProvider(ctx, port, kid, claims)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

func freePort(t *testing.T) int {
	t.Helper()
	port, err := childproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// verifierOf follows provider p's keys, with operatorOrg as OIDCOptions.OperatorOrg.
func verifierOf(t *testing.T, p *testenv.OIDCProvider, operatorOrg string) *OIDC {
	t.Helper()
	v, err := NewOIDC(t.Context(), OIDCOptions{Issuer: p.Issuer, Audience: "lexflow", RolesClaim: "roles", OrgClaim: "org",
		OperatorOrg: operatorOrg, Leeway: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func token(t *testing.T, p *testenv.OIDCProvider) string {
	t.Helper()
	tok, err := p.Token(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestOIDCAgainstARealProvider signs in with tokens of oidc-provider on loopback: a
// token it issues is accepted with its roles and organization; after the provider
// rotates its key, a token signed with the new key is accepted once the JWKS is
// fetched again; a token of another issuer is refused.
func TestOIDCAgainstARealProvider(t *testing.T) {
	port := freePort(t)
	p := startProvider(t, port, "key-1")
	v := verifierOf(t, p, "")
	verifiers := Verifiers{HS256: signer, OIDC: v}
	id, err := verifiers.Verify(token(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if id.Subject != "lexflow-tests" || id.Org != "acme" || !id.Has(schemas.RoleUser) || !id.Has(schemas.RoleAdmin) || id.Has("root") {
		t.Errorf("identity = %+v; want lexflow-tests of acme, user and admin (root is no Lexflow role)", id)
	}
	// The HS256 tokens work beside the provider's where they are allowed to.
	dev, _ := signer.Mint(Identity{Subject: "alice", Roles: []string{schemas.RoleUser}}, time.Hour)
	if id, err := (Verifiers{HS256: signer, OIDC: v, HS256WithOIDC: true}).Verify(dev); err != nil || id.Subject != "alice" {
		t.Errorf("dev token: %+v, %v", id, err)
	}

	// Key rotation: the provider comes back, on the same issuer, with a new key.
	p.Stop()
	rotated := startProvider(t, port, "key-2")
	if id, err := verifiers.Verify(token(t, rotated)); err != nil || id.Subject != "lexflow-tests" {
		t.Errorf("a token signed with the rotated key: %+v, %v", id, err)
	}

	other := startProvider(t, freePort(t), "key-2")
	if _, err := verifiers.Verify(token(t, other)); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("another issuer's token = %v, want ErrUnauthorized", err)
	}
}

// TestForgedTokens sends the verifiers the tokens an attacker forges: each is refused.
func TestForgedTokens(t *testing.T) {
	port := freePort(t)
	p := startProvider(t, port, "key-1")
	v := verifierOf(t, p, "")
	verifiers := Verifiers{HS256: signer, OIDC: v}
	good := token(t, p)
	claims := func(extra map[string]any) jwt.MapClaims {
		c := jwt.MapClaims{"sub": "mallory", "iss": p.Issuer, "aud": "lexflow", "exp": time.Now().Add(time.Hour).Unix(),
			"iat": time.Now().Unix(), "roles": []string{"admin"}, "org": "acme"}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	// The provider's public key, as an attacker reads it from the JWKS.
	resp, err := http.Get(p.Issuer + "/jwks")
	if err != nil {
		t.Fatal(err)
	}
	publicJWKS, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	hsWithPublicKey := jwt.NewWithClaims(jwt.SigningMethodHS256, claims(nil))
	hsWithPublicKey.Header["kid"] = "key-1"
	hsForged, _ := hsWithPublicKey.SignedString(publicJWKS)
	none := jwt.NewWithClaims(jwt.SigningMethodNone, claims(nil))
	none.Header["kid"] = "key-1"
	noneForged, _ := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	ownKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	es := func(extra map[string]any, kid string) string {
		tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims(extra))
		tok.Header["kid"] = kid
		s, _ := tok.SignedString(ownKey)
		return s
	}
	parts := strings.Split(good, ".")
	var body map[string]any
	raw, _ := jwt.NewParser().DecodeSegment(parts[1])
	_ = json.Unmarshal(raw, &body)
	body["roles"], body["org"] = []string{"admin"}, "globex"
	tamperedBody, _ := json.Marshal(body)
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(tamperedBody) + "." + parts[2]
	notYet, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "iss": signer.Issuer, "aud": signer.Audience,
		"exp": time.Now().Add(2 * time.Hour).Unix(), "nbf": time.Now().Add(time.Hour).Unix()}).SignedString(signer.Secret)

	for name, tok := range map[string]string{
		"alg none":                         noneForged,
		"HS256 signed with the public key": hsForged,
		"unknown kid":                      es(nil, "key-unknown"),
		"the provider's kid, another key":  es(nil, "key-1"),
		"tampered claims":                  tampered,
		"not yet valid":                    notYet,
		"oversized":                        good + strings.Repeat("A", MaxTokenBytes),
		"empty":                            "",
	} {
		t.Run(name, func(t *testing.T) {
			if id, err := verifiers.Verify(tok); !errors.Is(err, ErrUnauthorized) {
				t.Errorf("Verify = %+v, %v; want ErrUnauthorized", id, err)
			}
		})
	}
	// Expired, wrong issuer, wrong audience: the provider's own claims are checked too.
	for name, extra := range map[string]map[string]any{
		"expired":          {"exp": time.Now().Add(-time.Hour).Unix()},
		"another issuer":   {"iss": "https://evil.example"},
		"another audience": {"aud": "another-api"},
	} {
		if _, err := v.Verify(es(extra, "key-unknown")); !errors.Is(err, ErrUnauthorized) {
			t.Errorf("%s: %v, want ErrUnauthorized", name, err)
		}
	}
}

// TestOIDCStaffScope: a provider token with staff roles is the operator's staff only
// when its organization claim is the configured operator organization; without an
// organization claim it keeps only the user role.
func TestOIDCStaffScope(t *testing.T) {
	for _, c := range []struct {
		name   string
		claims map[string]any
		want   Identity
	}{
		{"the operator's staff", map[string]any{"roles": []string{"support"}, "org": "lexflow-ops"}, Identity{Org: "", Roles: []string{"support"}, Operator: true}},
		{"the operator's organization, a user", map[string]any{"roles": []string{"user"}, "org": "lexflow-ops"}, Identity{Org: "", Roles: []string{"user"}}},
		{"a firm's staff", map[string]any{"roles": []string{"support"}, "org": "acme"}, Identity{Org: "acme", Roles: []string{"support"}}},
		{"no organization claim", map[string]any{"roles": []string{"support", "user", "admin"}}, Identity{Org: "", Roles: []string{"user"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := startProviderWith(t, freePort(t), "key-1", c.claims)
			v := verifierOf(t, p, "lexflow-ops")
			id, err := v.Verify(token(t, p))
			if err != nil || id.Org != c.want.Org || !slices.Equal(id.Roles, c.want.Roles) || id.Operator != c.want.Operator {
				t.Errorf("Verify = %+v, %v; want org %q, roles %v, operator %v", id, err, c.want.Org, c.want.Roles, c.want.Operator)
			}
		})
	}
}

// TestAttackIDTokenIsNoAccessToken (issue 36, suspicion: OIDC ID tokens accepted as
// access tokens): a real sign-in's ID token, whose aud is the web app's client, passed
// a verifier whose audience was that client; given the client (as the API is, from
// LEXFLOW_OIDC_CLIENT_ID), the verifier refuses any token addressed to it, and still
// takes the sign-in's access token, addressed to the API.
func TestAttackIDTokenIsNoAccessToken(t *testing.T) {
	const redirect = "http://127.0.0.1:9/app/"
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	p, err := testenv.StartOIDCProvider(ctx, freePort(t), "web-key", map[string]any{"org": "acme", "roles": []string{"admin"}}, redirect)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	tokens, err := p.SignIn(ctx, redirect, "olga", "lexflow")
	if err != nil {
		t.Fatal(err)
	}
	verifier := func(audience, clientID string) *OIDC {
		v, err := NewOIDC(t.Context(), OIDCOptions{Issuer: p.Issuer, Audience: audience, RolesClaim: "roles", OrgClaim: "org",
			Leeway: 30 * time.Second, ClientID: clientID})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if id, err := verifier(testenv.OIDCWebClient, "").Verify(tokens.IDToken); err != nil || id.Subject != "olga" {
		t.Fatalf("the ID token with the client as the audience, no client given: %+v, %v; the suspicion needs it accepted", id, err)
	}
	if id, err := verifier(testenv.OIDCWebClient, testenv.OIDCWebClient).Verify(tokens.IDToken); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("the ID token, the client given: %+v, %v; want ErrUnauthorized", id, err)
	}
	api := verifier("lexflow", testenv.OIDCWebClient)
	if id, err := api.Verify(tokens.IDToken); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("the ID token at the API's audience: %+v, %v; want ErrUnauthorized", id, err)
	}
	if id, err := api.Verify(tokens.AccessToken); err != nil || id.Subject != "olga" || id.Org != "acme" || !id.Has(schemas.RoleAdmin) {
		t.Errorf("the access token: %+v, %v; want olga of acme, admin", id, err)
	}
}
