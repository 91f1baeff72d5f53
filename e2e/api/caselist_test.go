package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

// TestListCases lists a client's cases newest first, in pages, each with its phase and
// status: another user of the same organization sees none of them, and a page after a
// case that is not the caller's, or an unbounded one, is refused.
func TestListCases(t *testing.T) {
	t.Parallel()
	tok, other := s.Token(t, "lina"), s.Token(t, "mark")
	var ids []string
	for _, d := range []string{"First matter", "Second matter", "Third matter"} {
		ids = append([]string{s.CreateCase(t, tok, d)}, ids...)
	}
	theirs := s.CreateCase(t, other, "Mark's own matter")
	var got []string
	after := ""
	for range 3 {
		r := s.Call(t, "GET", "/v1/cases?limit=2&after="+after, tok, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("list: %d %s", r.Status, r.Raw)
		}
		for _, c := range r.Body["cases"].([]any) {
			cs := c.(map[string]any)
			if cs["phase"] == nil || cs["status"] == nil || cs["description"] == nil || cs["created_at"] == nil {
				t.Errorf("listed %v", cs)
			}
			got = append(got, cs["case_id"].(string))
		}
		next, _ := r.Body["next"].(string)
		if next == "" {
			break
		}
		after = next
	}
	if len(got) != 3 || got[0] != ids[0] || got[1] != ids[1] || got[2] != ids[2] {
		t.Errorf("listed %v, want %v", got, ids)
	}
	if all := s.Call(t, "GET", "/v1/cases?limit=3", tok, nil); all.Body["next"] != nil || strings.Contains(string(all.Raw), "case_details") {
		t.Errorf("one full page of all three: %s; want no next page, and no details", all.Raw)
	}
	if r := s.Call(t, "GET", "/v1/cases", other, nil); len(r.Body["cases"].([]any)) != 1 || r.Body["cases"].([]any)[0].(map[string]any)["case_id"] != theirs {
		t.Errorf("mark's list: %s", r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases?after="+theirs, tok, nil), http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases?after=x", tok, nil), http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases?limit=1000", tok, nil), http.StatusUnprocessableEntity, "invalid-input")
}
