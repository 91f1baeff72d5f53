package auth

import (
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/lexflow/lexflow/schemas"
)

// signed signs claims with the test signer's secret, as anyone holding it could.
func signed(t *testing.T, claims jwt.MapClaims) string {
	t.Helper()
	base := jwt.MapClaims{"sub": "sam", "iss": signer.Issuer, "aud": signer.Audience, "exp": time.Now().Add(time.Hour).Unix()}
	for k, v := range claims {
		base[k] = v
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, base).SignedString(signer.Secret)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestAttackStaffTokenNamesScope (issue 36, item 4 / finding 8): an HS256 staff token
// acts on every tenant only when its operator claim says so; one that names neither an
// organization nor the operator's scope is refused, where it acted on every tenant
// before. Mint refuses to make one.
func TestAttackStaffTokenNamesScope(t *testing.T) {
	for name, c := range map[string]struct {
		claims jwt.MapClaims
		want   *Identity
	}{
		"staff, no scope":           {jwt.MapClaims{"roles": []string{schemas.RoleSupport}}, nil},
		"staff, operator false":     {jwt.MapClaims{"roles": []string{schemas.RoleAdmin}, "operator": false}, nil},
		"staff, org and operator":   {jwt.MapClaims{"roles": []string{schemas.RoleAdmin}, "org": "acme", "operator": true}, nil},
		"a user as the operator":    {jwt.MapClaims{"roles": []string{schemas.RoleUser}, "operator": true}, nil},
		"staff of an organization":  {jwt.MapClaims{"roles": []string{schemas.RoleSupport}, "org": "acme"}, &Identity{Org: "acme"}},
		"the operator's staff":      {jwt.MapClaims{"roles": []string{schemas.RoleBilling}, "operator": true}, &Identity{Operator: true}},
		"a user of no organization": {jwt.MapClaims{"roles": []string{schemas.RoleUser}}, &Identity{}},
	} {
		t.Run(name, func(t *testing.T) {
			id, err := signer.Verify(signed(t, c.claims))
			switch {
			case c.want == nil && !errors.Is(err, ErrUnauthorized):
				t.Errorf("Verify = %+v, %v; want ErrUnauthorized", id, err)
			case c.want != nil && (err != nil || id.Org != c.want.Org || id.Operator != c.want.Operator):
				t.Errorf("Verify = %+v, %v; want org %q, operator %v", id, err, c.want.Org, c.want.Operator)
			}
		})
	}
	for _, id := range []Identity{
		{Subject: "sam", Roles: []string{schemas.RoleSupport}},
		{Subject: "sam", Org: "acme", Roles: []string{schemas.RoleSupport}, Operator: true},
		{Subject: "alice", Roles: []string{schemas.RoleUser}, Operator: true},
	} {
		if _, err := signer.Mint(id, time.Hour); err == nil {
			t.Errorf("Mint(%+v) made a token", id)
		}
	}
}

// TestAttackHS256RefusedWithOIDC (issue 36, item 4 / finding 8): with an OpenID
// Provider configured, a valid HS256 token is refused unless HS256WithOIDC allows it.
func TestAttackHS256RefusedWithOIDC(t *testing.T) {
	tok, err := signer.Mint(Identity{Subject: "root", Roles: []string{schemas.RoleAdmin}, Operator: true}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	provider := &OIDC{} // never asked: the token's alg is HS256
	if id, err := (Verifiers{HS256: signer, OIDC: provider}).Verify(tok); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("HS256 with OIDC = %+v, %v; want ErrUnauthorized", id, err)
	}
	if id, err := (Verifiers{HS256: signer, OIDC: provider, HS256WithOIDC: true}).Verify(tok); err != nil || !id.Operator {
		t.Errorf("HS256 with OIDC, allowed = %+v, %v", id, err)
	}
	if id, err := (Verifiers{HS256: signer}).Verify(tok); err != nil || id.Subject != "root" {
		t.Errorf("HS256 without OIDC = %+v, %v", id, err)
	}
}
