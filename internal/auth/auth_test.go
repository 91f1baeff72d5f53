package auth

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/lexflow/lexflow/schemas"
)

var signer = HS256{Secret: []byte("0123456789abcdef0123456789abcdef"), Issuer: "lexflow-dev", Audience: "lexflow"}

func TestMintVerify(t *testing.T) {
	tok, err := signer.Mint(Identity{Subject: "alice", Org: "acme", Roles: []string{schemas.RoleUser}}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	id, err := signer.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	if id.Subject != "alice" || id.Org != "acme" || !id.Has(schemas.RoleUser) || id.Has(schemas.RoleAdmin) {
		t.Fatalf("identity = %+v", id)
	}
}

func TestVerifyRefuses(t *testing.T) {
	good, _ := signer.Mint(Identity{Subject: "alice", Roles: []string{schemas.RoleUser}}, time.Hour)
	expired, _ := signer.Mint(Identity{Subject: "alice", Roles: []string{schemas.RoleUser}}, -time.Minute)
	other := signer
	other.Secret = []byte("another-secret-another-secret-xx")
	wrongKey, _ := other.Mint(Identity{Subject: "alice"}, time.Hour)
	otherIss := signer
	otherIss.Issuer = "someone-else"
	wrongIssuer, _ := otherIss.Mint(Identity{Subject: "alice"}, time.Hour)
	otherAud := signer
	otherAud.Audience = "another-api"
	wrongAudience, _ := otherAud.Mint(Identity{Subject: "alice"}, time.Hour)
	parts := strings.Split(good, ".")
	tampered := parts[0] + "." + strings.TrimRight(parts[1], "=") + "x." + parts[2]
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{
		"sub": "alice", "iss": "lexflow-dev", "aud": "lexflow", "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	noExp, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"sub": "alice", "iss": "lexflow-dev", "aud": "lexflow",
	}).SignedString(signer.Secret)

	for name, tok := range map[string]string{
		"empty": "", "garbage": "not-a-token", "expired": expired, "wrong key": wrongKey,
		"wrong issuer": wrongIssuer, "wrong audience": wrongAudience, "tampered": tampered,
		"alg none": none, "no expiry": noExp,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := signer.Verify(tok); !errors.Is(err, ErrUnauthorized) {
				t.Fatalf("Verify = %v, want ErrUnauthorized", err)
			}
		})
	}
}

func TestMintRefusesBadInput(t *testing.T) {
	if _, err := signer.Mint(Identity{}, time.Hour); err == nil {
		t.Error("minted a token without a subject")
	}
	if _, err := signer.Mint(Identity{Subject: "a", Roles: []string{"root"}}, time.Hour); err == nil {
		t.Error("minted a token with an unknown role")
	}
}

func TestLoadOrCreateSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "jwt-secret")
	first, err := LoadOrCreateSecret(path)
	if err != nil {
		t.Fatal(err)
	}
	second, err := LoadOrCreateSecret(path)
	if err != nil || string(first) != string(second) {
		t.Fatalf("second load = %q, %v; want the first secret %q", second, err, first)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("secret file mode = %v, want 0600", st.Mode().Perm())
	}
	if len(first) < 32 {
		t.Errorf("secret has %d characters", len(first))
	}
}

// TestLoadOrCreateSecretConcurrently: processes starting together on a fresh data
// directory (an api and a worker) all get the one secret, never a half-written file.
func TestLoadOrCreateSecretConcurrently(t *testing.T) {
	for range 20 {
		path := filepath.Join(t.TempDir(), "master-key")
		got := make([]string, 8)
		var wg sync.WaitGroup
		for i := range got {
			wg.Go(func() {
				s, err := LoadOrCreateSecret(path)
				if err != nil {
					t.Error(err)
				}
				got[i] = string(s)
			})
		}
		wg.Wait()
		for _, s := range got[1:] {
			if s != got[0] {
				t.Fatalf("concurrent loads returned %q and %q", got[0], s)
			}
		}
	}
}
