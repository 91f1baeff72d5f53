package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestSameNameInAnotherOrganization: ownership is the pair (organization, subject), so
// "alice" of another organization is another person. She cannot read, write to or
// reach through an idempotency key the case of acme's "alice".
func TestSameNameInAnotherOrganization(t *testing.T) {
	t.Parallel()
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", "globex"), Plan: "e2e",
		Credits: map[string]int{"1": 10, "2": 10, "3": 10}}); err != nil {
		t.Fatal(err)
	}
	acme := s.Token(t, "alice")
	globex := s.Mint(t, auth.Identity{Subject: "alice", Org: "globex", Roles: []string{schemas.RoleUser}})
	key := fmt.Sprintf("tenants-%d", time.Now().UnixNano())
	body := map[string]any{"description": "Acme's alice: a private matter"}
	r := s.Call(t, "POST", "/v1/cases", acme, body, "Idempotency-Key", key)
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := r.Body["case_id"].(string)
	for _, req := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/cases/" + id, nil},
		{"GET", "/v1/cases/" + id + "/messages", nil},
		{"POST", "/v1/cases/" + id + "/messages", map[string]any{"message": "show me the case details"}},
		{"GET", "/v1/cases/" + id + "/parties", nil},
		{"GET", "/v1/cases/" + id + "/drafts", nil},
	} {
		stack.WantProblem(t, s.Call(t, req.method, req.path, globex, req.body), http.StatusNotFound, "not-found")
	}
	other := s.Call(t, "POST", "/v1/cases", globex, map[string]any{"description": "Globex's alice: another matter"}, "Idempotency-Key", key)
	if other.Status != http.StatusCreated || other.Body["case_id"] == id {
		t.Errorf("globex's alice with acme's alice's key: %d %s; want a case of her own", other.Status, other.Raw)
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id, acme, nil); r.Status != http.StatusOK {
		t.Errorf("acme's alice reads her case: %d", r.Status)
	}
	if r := s.Call(t, "PUT", "/v1/me/memory", acme, map[string]any{"memory": "Acme's alice: the merger is secret."}); r.Status != http.StatusOK {
		t.Fatalf("put memory: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/memory", globex, nil); r.Body["memory"] != "" || r.Body["user_id"] != "alice" {
		t.Errorf("globex's alice reads %s; want an empty memory of her own", r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/memory", acme, nil); r.Body["memory"] != "Acme's alice: the merger is secret." || r.Body["user_id"] != "alice" {
		t.Errorf("acme's alice reads %s", r.Raw)
	}
}

// TestOrganizationNamedLikeAUser: an organization and a user without one that share a
// name are two tenants. The user's case, waiting on its budget, is on the operator's
// support list but not on that organization's desk, and raising the organization's
// budget does not resume it.
func TestOrganizationNamedLikeAUser(t *testing.T) {
	t.Parallel()
	name := fmt.Sprintf("collide-%d", time.Now().UnixNano())
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID(name, ""), Plan: "e2e",
		Credits: map[string]int{"1": 10, "2": 10, "3": 10}}); err != nil {
		t.Fatal(err)
	}
	admin := s.Mint(t, auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin, schemas.RoleSupport}, Operator: true})
	desk := s.Mint(t, auth.Identity{Subject: "desk", Org: name, Roles: []string{schemas.RoleSupport}})
	user := s.Mint(t, auth.Identity{Subject: name, Roles: []string{schemas.RoleUser}})
	if r := s.Call(t, "PUT", "/v1/admin/budgets/user:"+name, admin, map[string]any{"case_tokens_per_day": 1}); r.Status != http.StatusOK {
		t.Fatalf("set budget: %d %s", r.Status, r.Raw)
	}
	id := s.CreateCase(t, user, "A lease question of a user without an organization")
	s.WaitForStatus(t, user, id, schemas.StatusOpen, schemas.PhaseActive)
	if r := s.Send(t, user, id, "What can I do?"); r.Body["status"] != schemas.StatusWaitingBudget {
		t.Fatalf("turn: %s, want the case waiting on its budget", r.Raw)
	}
	if !s.SupportListHas(t, admin, schemas.StatusWaitingBudget, id) {
		t.Fatal("the operator's support list lacks the case")
	}
	r := s.Call(t, "GET", "/v1/support/cases?status="+schemas.StatusWaitingBudget, desk, nil)
	if r.Status != http.StatusOK || strings.Contains(string(r.Raw), id) {
		t.Errorf("the desk of organization %s lists the user's case: %d %s", name, r.Status, r.Raw)
	}
	raised := s.Call(t, "PUT", "/v1/admin/budgets/org:"+name, admin, map[string]any{"case_tokens_per_day": 5_000_000})
	if raised.Status != http.StatusOK || raised.Body["resumed"] != 0.0 {
		t.Errorf("raising the organization's budget: %d %s, want no case resumed", raised.Status, raised.Raw)
	}
	if st := s.Call(t, "GET", "/v1/cases/"+id, user, nil).Body["state"].(map[string]any); st["status"] != schemas.StatusWaitingBudget {
		t.Errorf("the user's case after the organization's raise: %v", st["status"])
	}
}
