package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestCasesPerDay opens cases until the day's limits are reached: every case start
// costs a model call before any quota check, so this is where a flood spends the
// operator's money. Past a user's limit, or the organization's, a new case answers 429
// with Retry-After at the next UTC midnight; a retried create of an existing case is no
// new case, and another user of the organization keeps their own count.
func TestCasesPerDay(t *testing.T) {
	org := fmt.Sprintf("flood-%d", time.Now().UnixNano())
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", org), Plan: "e2e",
		Credits: map[string]int{"1": 100, "2": 100, "3": 100}}); err != nil {
		t.Fatal(err)
	}
	h := s.Handlers(stack.TaskQueue)
	h.CasesPerDay, h.OrgCasesPerDay = 2, 3
	srv := httptest.NewServer(api.New(h))
	defer srv.Close()
	saved := s.APIURL
	s.APIURL = srv.URL
	defer func() { s.APIURL = saved }()

	mint := func(sub string) string {
		return s.Mint(t, auth.Identity{Subject: sub, Org: org, Roles: []string{schemas.RoleUser}})
	}
	flooder, colleague := mint("flooder"), mint("colleague")
	create := func(tok, key string) stack.Response {
		return s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Yet another question about a lease"}, "Idempotency-Key", key)
	}
	for i := range 2 {
		if r := create(flooder, fmt.Sprint("k", i)); r.Status != http.StatusCreated {
			t.Fatalf("case %d: %d %s", i+1, r.Status, r.Raw)
		}
	}
	r := create(flooder, "k2")
	stack.WantProblem(t, r, http.StatusTooManyRequests, "too-many-requests")
	untilMidnight := time.Until(time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour))
	if after, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || time.Duration(after)*time.Second > untilMidnight+2*time.Second ||
		time.Duration(after)*time.Second < untilMidnight-time.Minute {
		t.Errorf("Retry-After = %q; want the seconds to the next UTC midnight, about %v", r.Header.Get("Retry-After"), untilMidnight)
	}
	if r := create(flooder, "k0"); r.Status != http.StatusCreated {
		t.Errorf("a retried create of an existing case: %d %s", r.Status, r.Raw)
	}
	if r := create(colleague, "c0"); r.Status != http.StatusCreated {
		t.Fatalf("a colleague's first case: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, create(colleague, "c1"), http.StatusTooManyRequests, "too-many-requests")
}
