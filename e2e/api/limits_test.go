package api_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
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
	t.Parallel()
	org := fmt.Sprintf("flood-%d", time.Now().UnixNano())
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", org), Plan: "e2e",
		Credits: map[string]int{"1": 100, "2": 100, "3": 100}}); err != nil {
		t.Fatal(err)
	}
	// The API's clock reads 01:00 UTC today as the test starts: the store dates cases
	// by the real clock, so the API's day must have begun before they were opened, and
	// no midnight comes while the test runs.
	now := stack.Clock(time.Now().UTC().Truncate(24 * time.Hour).Add(time.Hour))
	limited := s.Serve(t, func(cfg *config.Config, d *api.Deps) {
		cfg.CasesPerDay, cfg.OrgCasesPerDay = 2, 3
		d.Now = now
	})

	mint := func(sub string) string {
		return s.Mint(t, auth.Identity{Subject: sub, Org: org, Roles: []string{schemas.RoleUser}})
	}
	flooder, colleague := mint("flooder"), mint("colleague")
	create := func(tok, key string) stack.Response {
		return limited.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Yet another question about a lease"}, "Idempotency-Key", key)
	}
	for i := range 2 {
		if r := create(flooder, fmt.Sprint("k", i)); r.Status != http.StatusCreated {
			t.Fatalf("case %d: %d %s", i+1, r.Status, r.Raw)
		}
	}
	r := create(flooder, "k2")
	stack.WantProblem(t, r, http.StatusTooManyRequests, "too-many-requests")
	untilMidnight := schemas.NextUTCDay(now()).Sub(now())
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

// TestConcurrentTurnsPerOrganization: with one case of an organization working on a
// slow turn and a limit of one, a message to another of its cases answers 429 with
// Retry-After; another organization's message goes through, and so does the first
// organization's once its turn is done.
func TestConcurrentTurnsPerOrganization(t *testing.T) {
	t.Parallel()
	org := fmt.Sprintf("busy-%d", time.Now().UnixNano())
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", org), Plan: "e2e",
		Credits: map[string]int{"1": 100, "2": 100, "3": 100}}); err != nil {
		t.Fatal(err)
	}
	queue := fmt.Sprintf("e2e-busy-%d", time.Now().UnixNano())
	s.StartHelperWorker(t, queue, 3*time.Second)
	busy := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.TaskQueue, cfg.OrgConcurrentTurns = queue, 1 })

	tok := s.Mint(t, auth.Identity{Subject: "bea", Org: org, Roles: []string{schemas.RoleUser}})
	first, second := busy.CreateCase(t, tok, "A first lease question"), busy.CreateCase(t, tok, "A second lease question")
	// working waits, a bounded time, until Temporal's visibility counts n of the
	// organization's cases working: it trails the cases by moments.
	working := func(org string, n int64) {
		t.Helper()
		query := fmt.Sprintf("WorkflowType = 'Case' AND ExecutionStatus = 'Running' AND TenantID = '%s' AND WaitingOn = 'agent'", org)
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			resp, err := s.TC.CountWorkflow(t.Context(), &workflowservice.CountWorkflowExecutionsRequest{Query: query})
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetCount() == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("visibility counts %d working cases, want %d", resp.GetCount(), n)
			}
		}
	}
	// tiered waits, a bounded time, until a case's tiering is done (the Case's state,
	// which is current); visibility then counts it as working until it catches up.
	tiered := func(tok, id string) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if r := busy.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Body["phase"] == schemas.PhaseActive {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("case %s is still tiering", id)
			}
		}
	}
	tiered(tok, first)
	tiered(tok, second)
	working(org, 0)
	answered := busy.SendInBackground(tok, first, "show me the case details")
	s.WaitForActivity(t, schemas.TurnWorkflowID(first, 1), "RunTool")
	working(org, 1)
	r := busy.Call(t, "POST", "/v1/cases/"+second+"/messages", tok, map[string]any{"message": "hello again"})
	stack.WantProblem(t, r, http.StatusTooManyRequests, "too-many-requests")
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	otherOrg := org + "-other"
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", otherOrg), Plan: "e2e",
		Credits: map[string]int{"1": 100}}); err != nil {
		t.Fatal(err)
	}
	other := s.Mint(t, auth.Identity{Subject: "bea", Org: otherOrg, Roles: []string{schemas.RoleUser}})
	otherCase := busy.CreateCase(t, other, "Another firm's question")
	tiered(other, otherCase)
	working(otherOrg, 0)
	if r := busy.Call(t, "POST", "/v1/cases/"+otherCase+"/messages", other, map[string]any{"message": "hello"}); r.Status != http.StatusOK {
		t.Errorf("another organization: %d %s", r.Status, r.Raw)
	}
	select {
	case a := <-answered:
		if a.Err != nil || a.R.Status != http.StatusOK {
			t.Fatalf("the slow turn: %v %d %s", a.Err, a.R.Status, a.R.Raw)
		}
	case <-time.After(time.Minute):
		t.Fatal("the slow turn did not answer")
	}
	working(org, 0)
	if r := busy.Call(t, "POST", "/v1/cases/"+second+"/messages", tok, map[string]any{"message": "hello again"}); r.Status != http.StatusOK {
		t.Errorf("after the turn: %d %s", r.Status, r.Raw)
	}
}
