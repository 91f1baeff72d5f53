package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/deadline"
	"github.com/lexflow/lexflow/schemas"
)

// postDeadline sends body to POST /v1/deadlines/compute as a signed-in user.
func postDeadline(t *testing.T, body string) *httptest.ResponseRecorder {
	t.Helper()
	e, signer := testServer(routes, false)
	tok, err := signer.Mint(auth.Identity{Subject: "ana", Roles: []string{schemas.RoleUser}}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/deadlines/compute", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

// TestComputeDeadlineRoute: the request answers the due day, the rules with
// their articles, the days skipped (an empty list, never null) and 24:00 in the
// court's zone.
func TestComputeDeadlineRoute(t *testing.T) {
	rec := postDeadline(t, `{"jurisdiction": "ro", "from": "2024-04-16", "amount": 16, "unit": "days"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	var a deadline.Answer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	if a.Due != "2024-05-07" || len(a.NonWorking) != 4 || len(a.Rules) != 3 || a.Rules[0].Article != "art. 181 alin. (1) pct. 2 C.proc.civ." ||
		a.EndsAt.UTC().Format(time.RFC3339) != "2024-05-07T21:00:00Z" || a.Zone != "Europe/Bucharest" {
		t.Errorf("answer = %+v", a)
	}
	rec = postDeadline(t, `{"jurisdiction": "it", "from": "2024-03-04", "amount": 30, "unit": "days", "direction": "forward", "code": "cpc", "suspension": true}`)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"non_working":[]`) {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
}

// TestAttackDeadlineArguments sends the route hostile and malformed arguments: each
// is refused as a problem, 422 for values the rules cannot compute, 400 for a body
// that is not the request's JSON, 413 past the body limit, and without
// quoting the input back.
func TestAttackDeadlineArguments(t *testing.T) {
	long := strings.Repeat("9", 200_000)
	for _, tc := range []struct {
		name, body string
		status     int
	}{
		{"unknown jurisdiction", `{"jurisdiction": "fr", "from": "2025-03-03", "amount": 3, "unit": "days"}`, 422},
		{"unknown unit", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": 3, "unit": "fortnights"}`, 422},
		{"unknown direction", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": 3, "unit": "days", "direction": "up"}`, 422},
		{"unknown code", `{"jurisdiction": "it", "from": "2025-03-03", "amount": 3, "unit": "days", "code": "cpp"}`, 422},
		{"date not YYYY-MM-DD", `{"jurisdiction": "ro", "from": "3 March 2025", "amount": 3, "unit": "days"}`, 422},
		{"a 200,000-digit date", `{"jurisdiction": "ro", "from": "` + long + `", "amount": 3, "unit": "days"}`, 422},
		{"amount zero", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": 0, "unit": "days"}`, 422},
		{"amount negative", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": -3, "unit": "days"}`, 422},
		{"amount absurd", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": 9223372036854775807, "unit": "days"}`, 422},
		{"over 100 years", `{"jurisdiction": "it", "from": "2025-03-03", "amount": 101, "unit": "years"}`, 422},
		{"amount past int64", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": 1e400, "unit": "days"}`, 400},
		{"a 200,000-digit amount", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": ` + long + `, "unit": "days"}`, 400},
		{"amount a fraction", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": 1.5, "unit": "days"}`, 400},
		{"amount a string", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": "3", "unit": "days"}`, 400},
		{"suspension a string", `{"jurisdiction": "it", "from": "2025-03-03", "amount": 3, "unit": "days", "suspension": "no"}`, 400},
		{"suspension in Romania", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": 3, "unit": "days", "suspension": true}`, 422},
		{"an array", `[{"jurisdiction": "ro"}]`, 400},
		{"trailing data", `{"jurisdiction": "ro", "from": "2025-03-03", "amount": 3, "unit": "days"} {}`, 400},
		{"past the body limit", `{"jurisdiction": "ro", "pad": "` + strings.Repeat("x", 300_000) + `"}`, 413},
	} {
		rec := postDeadline(t, tc.body)
		if rec.Code != tc.status || rec.Header().Get("Content-Type") != ProblemContentType {
			t.Errorf("%s: %d %s, want %d as a problem", tc.name, rec.Code, rec.Header().Get("Content-Type"), tc.status)
		}
		if strings.Contains(rec.Body.String(), "99999") || strings.Contains(rec.Body.String(), "xxxx") || rec.Body.Len() > 1000 {
			t.Errorf("%s: the problem quotes the input back (%d bytes)", tc.name, rec.Body.Len())
		}
	}
}
