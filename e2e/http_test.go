package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/lexflow/lexflow/auth"
)

// token mints a token for a user of the suite's API.
func token(t testing.TB, sub string) string {
	t.Helper()
	tok, err := signer.Mint(auth.Identity{Subject: sub, Org: "acme", Roles: []string{auth.RoleUser}}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// response is an API answer: its status, headers and decoded JSON body.
type response struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

// call sends a request to the suite's API and fails the test if it cannot. body is
// JSON-encoded unless it is a string, which is sent as it is.
func call(t testing.TB, method, path, tok string, body any, headers ...string) response {
	t.Helper()
	r, err := request(method, path, tok, body, headers...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// request sends a request to the suite's API; it may run outside the test's goroutine.
func request(method, path, tok string, body any, headers ...string) (response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return response{}, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, apiURL+path, rd)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	r := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			return r, fmt.Errorf("%s %s: body is not JSON: %s", method, path, raw)
		}
	}
	return r, nil
}

// createCase opens a case for sub and returns its ID.
func createCase(t testing.TB, tok, description string) string {
	t.Helper()
	r := call(t, "POST", "/v1/cases", tok, map[string]any{"description": description})
	if r.status != http.StatusCreated {
		t.Fatalf("create case: %d %s", r.status, r.raw)
	}
	return r.body["case_id"].(string)
}

// wantProblem checks that r is a problem+json answer with status and type.
func wantProblem(t *testing.T, r response, status int, typ string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status = %d, want %d (body %s)", r.status, status, r.raw)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type = %q, want application/problem+json", ct)
	}
	if got, _ := r.body["type"].(string); got != "https://lexflow.dev/problems/"+typ {
		t.Errorf("problem type = %q, want %s", got, typ)
	}
	if got, _ := r.body["status"].(float64); int(got) != status {
		t.Errorf("problem status = %v", r.body["status"])
	}
}
