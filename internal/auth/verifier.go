package auth

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Verifier verifies a bearer token and returns whom it speaks for.
type Verifier interface {
	Verify(token string) (Identity, error)
}

// MaxTokenBytes bounds a bearer token; longer ones are refused unread.
const MaxTokenBytes = 8 << 10

// Verifiers accepts the HS256 tokens and, when OIDC is set, an OpenID Provider's
// RS256/ES256 tokens, choosing by the token's alg header; the chosen verifier then
// checks the alg again, so a token cannot pass one verifier's checks with the other's
// algorithm. With OIDC set, HS256 tokens are refused unless HS256WithOIDC: the
// provider is then who signs people in, and a shared secret that mints any identity
// should not also open the API.
type Verifiers struct {
	HS256         HS256
	OIDC          *OIDC
	HS256WithOIDC bool
}

// Verify verifies token with the verifier its algorithm names.
func (v Verifiers) Verify(token string) (Identity, error) {
	if len(token) > MaxTokenBytes {
		return Identity{}, fmt.Errorf("%w: token longer than %d bytes", ErrUnauthorized, MaxTokenBytes)
	}
	switch {
	case v.OIDC == nil:
		return v.HS256.Verify(token)
	case alg(token) != "HS256":
		return v.OIDC.Verify(token)
	case v.HS256WithOIDC:
		return v.HS256.Verify(token)
	}
	return Identity{}, fmt.Errorf("%w: HS256 tokens are refused while OIDC is configured", ErrUnauthorized)
}

// alg is the alg of a JWT's header, unverified, or "".
func alg(token string) string {
	head, _, _ := strings.Cut(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return ""
	}
	var h struct {
		Alg string `json:"alg"`
	}
	_ = json.Unmarshal(raw, &h)
	return h.Alg
}
