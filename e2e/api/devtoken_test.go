package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

// TestDevToken: in dev mode the sign-in form's route mints a token for the identity
// asked, which the API then accepts; identities it could not be, and roles that do not
// exist, are refused. (Outside dev mode the route does not exist:
// TestPublicRoutesAreTheMarkedOnes.)
func TestDevToken(t *testing.T) {
	t.Parallel()
	r := s.Call(t, "POST", "/dev/token", "", map[string]any{"sub": "dora", "org": "acme", "roles": []string{"user", "support", "user"}})
	tok, _ := r.Body["token"].(string)
	id, _ := r.Body["identity"].(map[string]any)
	if r.Status != http.StatusCreated || tok == "" || r.Body["expires_at"] == nil || id["sub"] != "dora" || len(id["roles"].([]any)) != 2 {
		t.Fatalf("dev token: %d %s", r.Status, r.Raw)
	}
	if list := s.Call(t, "GET", "/v1/support/cases?status=stuck", tok, nil); list.Status != http.StatusOK {
		t.Errorf("the minted support token: %d %s", list.Status, list.Raw)
	}
	if plain := s.Call(t, "POST", "/dev/token", "", map[string]any{"sub": "dora"}); plain.Body["identity"].(map[string]any)["roles"].([]any)[0] != "user" {
		t.Errorf("a token asked without roles: %s", plain.Raw)
	}
	for _, bad := range []map[string]any{
		{}, {"sub": ""}, {"sub": "dora smith"}, {"sub": "-dora"}, {"sub": "dora", "org": "acme corp"},
		{"sub": "dora", "roles": []string{"root"}},
	} {
		stack.WantProblem(t, s.Call(t, "POST", "/dev/token", "", bad), http.StatusUnprocessableEntity, "invalid-input")
	}
	stack.WantProblem(t, s.Call(t, "POST", "/dev/token", "", "not json"), http.StatusBadRequest, "bad-json")
	// A form post from a web page elsewhere: no JSON content type.
	stack.WantProblem(t, s.Call(t, "POST", "/dev/token", "", `{"sub":"dora"}`, "Content-Type", "text/plain"),
		http.StatusUnprocessableEntity, "invalid-input")
	// DNS rebinding: a page of evil.example whose name now points at this machine.
	req, _ := http.NewRequest("POST", s.APIURL+"/dev/token", strings.NewReader(`{"sub":"dora","roles":["admin"]}`))
	req.Host = "evil.example"
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a request for Host evil.example: %d, want 403", resp.StatusCode)
	}
}
