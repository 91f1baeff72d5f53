package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/schemas"
)

// TestAttackStaffTokenWithoutScope (issue 36, item 4 / finding 8): a support token
// signed with the API's secret but naming neither an organization nor the operator's
// scope, as `lexflow token --role support` minted before, read every tenant's case;
// the API now refuses it with 401, while the same token with its operator claim reads
// the case.
func TestAttackStaffTokenWithoutScope(t *testing.T) {
	t.Parallel()
	id := s.CreateCase(t, s.Token(t, "scope-victim"), "A matter the support desk should not reach unscoped")
	sign := func(extra jwt.MapClaims) string {
		claims := jwt.MapClaims{"sub": "sam", "iss": s.Signer.Issuer, "aud": s.Signer.Audience, "exp": time.Now().Add(time.Hour).Unix(),
			"roles": []string{schemas.RoleSupport}}
		for k, v := range extra {
			claims[k] = v
		}
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.Signer.Secret)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/support/cases/"+id+"/tickets", sign(nil), nil), http.StatusUnauthorized, "unauthorized")
	if r := s.Call(t, "GET", "/v1/support/cases/"+id+"/tickets", sign(jwt.MapClaims{"operator": true}), nil); r.Status != http.StatusOK {
		t.Errorf("the operator's support: %d %s", r.Status, r.Raw)
	}
}
