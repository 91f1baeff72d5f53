package api_test

import (
	"net/http"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestSupportReadsTranscriptAndEvents: staff whose scope reaches a case read where it
// stands, its transcript and its events (a page, or a stream), each read audited; a desk of
// another organization gets 404, and a client 403, even for their own case.
func TestSupportReadsTranscriptAndEvents(t *testing.T) {
	t.Parallel()
	id, client, org := unpaidCase(t)
	own := s.Mint(t, auth.Identity{Subject: "desk", Org: org, Roles: []string{schemas.RoleSupport}})
	foreign := s.Mint(t, auth.Identity{Subject: "desk", Org: "another-firm", Roles: []string{schemas.RoleSupport}})
	operator := s.Mint(t, auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin}, Operator: true})
	base := "/v1/support/cases/" + id
	view := s.Call(t, "GET", base, own, nil)
	if st, _ := view.Body["state"].(map[string]any); view.Status != http.StatusOK || st["phase"] != schemas.PhaseAwaitingPayment ||
		st["waiting_on"] != schemas.WaitingOnPayment || view.Body["stuck"] != false {
		t.Fatalf("the case's state: %d %s", view.Status, view.Raw)
	}
	msgs := s.Call(t, "GET", base+"/messages", own, nil)
	if recs, _ := msgs.Body["messages"].([]any); msgs.Status != http.StatusOK || len(recs) == 0 {
		t.Fatalf("transcript: %d %s", msgs.Status, msgs.Raw)
	}
	page := s.Call(t, "GET", base+"/events?limit=2", own, nil)
	if evs, _ := page.Body["events"].([]any); page.Status != http.StatusOK || len(evs) != 2 || page.Body["next"] != float64(2) {
		t.Fatalf("events: %d %s", page.Status, page.Raw)
	}
	req, _ := http.NewRequestWithContext(t.Context(), "GET", s.APIURL+base+"/events", nil)
	req.Header.Set("Last-Event-ID", "2")
	if e := next(t, stack.ReadEvents(t, req, own)); e.ID != "3" {
		t.Errorf("the staff's stream starts with %+v, want event 3", e)
	}
	for _, path := range []string{base, base + "/messages", base + "/events"} {
		stack.WantProblem(t, s.Call(t, "GET", path, foreign, nil), http.StatusNotFound, "not-found")
		stack.WantProblem(t, s.Call(t, "GET", path, client, nil), http.StatusForbidden, "forbidden")
	}
	audit := s.Call(t, "GET", "/v1/admin/audit?case="+id, operator, nil)
	counts := map[string]int{}
	for _, e := range audit.Body["entries"].([]any) {
		counts[e.(map[string]any)["action"].(string)]++
	}
	if counts["case.state.read"] != 1 || counts["case.transcript.read"] != 1 || counts["case.events.read"] != 2 {
		t.Errorf("audited reads: %v; want the state's, the transcript's and both of the events'", counts)
	}
}
