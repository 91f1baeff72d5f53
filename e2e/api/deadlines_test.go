package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/lexflow/lexflow/internal/deadline"
)

// TestDeadlineComputeThroughTheAPI runs docs/deadlines.md's examples through the
// running API, whose answers the stack checks against the OpenAPI document: a
// Romanian term past Orthodox Easter, an Italian one across the August suspension,
// and bad input answered 422 (400 for a body of the wrong shape).
func TestDeadlineComputeThroughTheAPI(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "lawyer")
	for _, tc := range []struct {
		body map[string]any
		due  string
	}{
		{map[string]any{"jurisdiction": "ro", "from": "2024-04-16", "amount": 16, "unit": "days"}, "2024-05-07"},
		{map[string]any{"jurisdiction": "it", "from": "2023-07-20", "amount": 60, "unit": "days"}, "2023-10-19"},
		{map[string]any{"jurisdiction": "it", "from": "2023-09-05", "amount": 20, "unit": "days", "direction": "backward"}, "2023-07-14"},
		{map[string]any{"jurisdiction": "it", "from": "2024-07-20", "amount": 30, "unit": "days", "suspension": false}, "2024-08-19"},
	} {
		r := s.Call(t, "POST", "/v1/deadlines/compute", tok, tc.body)
		if r.Status != http.StatusOK {
			t.Fatalf("%v: %d %s", tc.body, r.Status, r.Raw)
		}
		var a deadline.Answer
		if err := json.Unmarshal(r.Raw, &a); err != nil {
			t.Fatal(err)
		}
		if a.Due != tc.due || len(a.Rules) == 0 {
			t.Errorf("%v: due %s with %d rules, want %s", tc.body, a.Due, len(a.Rules), tc.due)
		}
	}
	for body, want := range map[string]int{
		`{"jurisdiction": "ro", "from": "2024-02-30", "amount": 1, "unit": "days"}`:   http.StatusUnprocessableEntity,
		`{"jurisdiction": "ro", "from": "2024-02-01", "amount": 1, "unit": "hours"}`:  http.StatusUnprocessableEntity,
		`{"jurisdiction": "ro", "from": "2024-02-01", "amount": "1", "unit": "days"}`: http.StatusBadRequest,
	} {
		if r := s.Call(t, "POST", "/v1/deadlines/compute", tok, json.RawMessage(body)); r.Status != want {
			t.Errorf("%s: %d %s, want %d", body, r.Status, r.Raw, want)
		}
	}
	if r := s.Call(t, "POST", "/v1/deadlines/compute", "", map[string]any{"jurisdiction": "ro"}); r.Status != http.StatusUnauthorized {
		t.Errorf("without a token: %d", r.Status)
	}
}
