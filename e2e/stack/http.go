package stack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

// Client calls one API server: the stack's own, or one a test serves (see Serve).
type Client struct {
	// APIURL is the server's base URL.
	APIURL string
}

// Response is an API answer: its status, headers and decoded JSON body.
type Response struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    []byte
}

// httpClient bounds every request of the suites, so that a turn that never ends fails
// its test instead of holding the server's Close for ever.
var httpClient = &http.Client{Timeout: 3 * time.Minute}

// Call sends a request to the client's API and fails the test if it cannot. body is
// JSON-encoded unless it is a string, which is sent as it is; headers are name, value
// pairs.
func (c *Client) Call(t testing.TB, method, path, tok string, body any, headers ...string) Response {
	t.Helper()
	r, err := c.Request(method, path, tok, body, headers...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Request sends a request to the client's API; it may run outside the test's goroutine.
// An answer that breaks the API's OpenAPI document is an error (see checkContract).
func (c *Client) Request(method, path, tok string, body any, headers ...string) (Response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return Response{}, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.APIURL+path, rd)
	if err != nil {
		return Response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return Response{}, err
	}
	r := Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			return r, fmt.Errorf("%s %s: body is not JSON: %s", method, path, raw)
		}
	}
	return r, checkContract(req, resp.StatusCode, resp.Header, raw)
}

// CreateCase opens a case with the token's identity and returns its ID.
func (c *Client) CreateCase(t testing.TB, tok, description string) string {
	t.Helper()
	r := c.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": description})
	if r.Status != http.StatusCreated {
		t.Fatalf("create case: %d %s", r.Status, r.Raw)
	}
	return r.Body["case_id"].(string)
}

// Send sends a chat message and fails the test unless the turn answers 200.
func (c *Client) Send(t *testing.T, tok, caseID, message string) Response {
	t.Helper()
	r := c.Call(t, "POST", "/v1/cases/"+caseID+"/messages", tok, map[string]any{"message": message})
	if r.Status != http.StatusOK {
		t.Fatalf("%.40q: %d %s", message, r.Status, r.Raw)
	}
	return r
}

// Answer is the outcome of a request sent in the background.
type Answer struct {
	R   Response
	Err error
}

// SendInBackground sends a message and delivers the answer on the returned channel.
func (c *Client) SendInBackground(tok, caseID, message string) <-chan Answer {
	answered := make(chan Answer, 1)
	go func() {
		r, err := c.Request("POST", "/v1/cases/"+caseID+"/messages", tok, map[string]any{"message": message})
		answered <- Answer{r, err}
	}()
	return answered
}

// WantProblem checks that r is a problem+json answer with status and type.
func WantProblem(t *testing.T, r Response, status int, typ string) {
	t.Helper()
	if r.Status != status {
		t.Errorf("status = %d, want %d (body %s)", r.Status, status, r.Raw)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type = %q, want application/problem+json", ct)
	}
	if got, _ := r.Body["type"].(string); got != "https://lexflow.dev/problems/"+typ {
		t.Errorf("problem type = %q, want %s", got, typ)
	}
	if got, _ := r.Body["status"].(float64); int(got) != status {
		t.Errorf("problem status = %v", r.Body["status"])
	}
}

// ToolsUsed is a turn answer's tools_used.
func ToolsUsed(r Response) []map[string]any {
	var out []map[string]any
	for _, u := range r.Body["tools_used"].([]any) {
		out = append(out, u.(map[string]any))
	}
	return out
}

// SupportListHas polls support's list of cases in a status until it shows the case:
// the list reads Temporal's visibility store, which catches up shortly after the case.
func (c *Client) SupportListHas(t *testing.T, tok, status, caseID string) bool {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := c.Call(t, "GET", "/v1/support/cases?status="+status, tok, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("support list: %d %s", r.Status, r.Raw)
		}
		for _, listed := range r.Body["cases"].([]any) {
			if listed.(map[string]any)["case_id"] == caseID {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// WaitForStatus polls the case, a bounded time, until its workflow reports status and
// phase: signals and tiering are handled after the request that caused them answers.
func (c *Client) WaitForStatus(t *testing.T, tok, caseID, status, phase string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := c.Call(t, "GET", "/v1/cases/"+caseID, tok, nil)
		st, _ := r.Body["state"].(map[string]any)
		if st != nil && st["status"] == status && st["phase"] == phase {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("case %s is not %s and %s after 30 s: %s", caseID, status, phase, r.Raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Pay opens a checkout for a case awaiting payment and presses the test-mode
// provider's Pay button, which sends the API the provider's signed webhook; it
// returns the checkout.
func (c *Client) Pay(t testing.TB, caseID, tok string) Response {
	t.Helper()
	co := c.Call(t, "POST", "/v1/cases/"+caseID+"/checkout", tok, nil)
	if co.Status != http.StatusCreated {
		t.Fatalf("checkout: %d %s", co.Status, co.Raw)
	}
	page, err := http.Get(co.Body["url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if page.StatusCode != http.StatusOK || !bytes.Contains(html, []byte(co.Body["price"].(string))) || !bytes.Contains(html, []byte(`id="pay"`)) {
		t.Fatalf("checkout page: %d %s", page.StatusCode, html)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Post(co.Body["url"].(string), "application/x-www-form-urlencoded", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("pay: %d, want 303 to the success URL", resp.StatusCode)
	}
	return co
}
