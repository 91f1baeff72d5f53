package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// budgetTests check store.Budgets.
var budgetTests = []subtest{
	{"TokensSumByCaseAndTenantPerDay", testTokensUsed},
	{"RecordTokensIsIdempotent", testRecordTokensIsIdempotent},
	{"DeploymentTokensSumEveryTenant", testDeploymentTokens},
	{"PutAndGetBudget", testPutBudget},
}

func recordTokens(t *testing.T, s store.Store, tenant, caseID, day string, tokens int64) string {
	t.Helper()
	u := store.TokenUse{ID: newID("call"), Tenant: tenant, CaseID: caseID, Day: day, Tokens: tokens, At: time.Now()}
	if err := s.RecordTokens(t.Context(), u); err != nil {
		t.Fatalf("RecordTokens = %v", err)
	}
	return u.ID
}

func testTokensUsed(t *testing.T, s store.Store) {
	tenant, other := "org:"+newID("org"), "org:"+newID("org")
	caseA, caseB := newID("case"), newID("case")
	recordTokens(t, s, tenant, caseA, "2026-11-22", 100)
	recordTokens(t, s, tenant, caseA, "2026-11-22", 20)
	recordTokens(t, s, tenant, caseB, "2026-11-22", 3)
	recordTokens(t, s, tenant, caseA, "2026-11-21", 5000)
	recordTokens(t, s, other, caseA, "2026-11-22", 7000)
	recordTokens(t, s, tenant, "", "2026-11-22", 7) // a query's, on no case: the tenant's alone
	for _, c := range []struct {
		caseID, day string
		want        store.TokensUsed
	}{
		{caseA, "2026-11-22", store.TokensUsed{Case: 120, Tenant: 130}},
		{caseB, "2026-11-22", store.TokensUsed{Case: 3, Tenant: 130}},
		{newID("case"), "2026-11-22", store.TokensUsed{Tenant: 130}},
		{caseA, "2026-11-21", store.TokensUsed{Case: 5000, Tenant: 5000}},
		{caseA, "2026-11-23", store.TokensUsed{}},
		{"", "2026-11-22", store.TokensUsed{Case: 130, Tenant: 130}}, // no case: the tenant's, as an admin reads it
	} {
		got, err := s.TokensUsed(t.Context(), tenant, c.caseID, c.day)
		if err != nil || got != c.want {
			t.Errorf("TokensUsed(%s, %s) = %+v, %v; want %+v", c.caseID, c.day, got, err, c.want)
		}
	}
}

func testRecordTokensIsIdempotent(t *testing.T, s store.Store) {
	tenant, caseID := "user:"+newID("user"), newID("case")
	u := store.TokenUse{ID: newID("call"), Tenant: tenant, CaseID: caseID, Day: "2026-11-22", Tokens: 42, At: time.Now()}
	for range 2 {
		if err := s.RecordTokens(t.Context(), u); err != nil {
			t.Fatalf("RecordTokens = %v", err)
		}
	}
	got, err := s.TokensUsed(t.Context(), tenant, caseID, "2026-11-22")
	if err != nil || got != (store.TokensUsed{Case: 42, Tenant: 42}) {
		t.Errorf("TokensUsed = %+v, %v; want the one use recorded twice counted once", got, err)
	}
}

func testDeploymentTokens(t *testing.T, s store.Store) {
	day, other := newID("day"), newID("day") // days of this test alone: other tests record on theirs
	recordTokens(t, s, "org:"+newID("org"), newID("case"), day, 100)
	recordTokens(t, s, "user:"+newID("user"), newID("case"), day, 20)
	recordTokens(t, s, "org:"+newID("org"), "", day, 3) // a query's, on no case
	recordTokens(t, s, "org:"+newID("org"), newID("case"), other, 5000)
	again := store.TokenUse{ID: newID("call"), Tenant: "org:" + newID("org"), CaseID: newID("case"), Day: day, Tokens: 7, At: time.Now()}
	for range 2 {
		if err := s.RecordTokens(t.Context(), again); err != nil {
			t.Fatalf("RecordTokens = %v", err)
		}
	}
	if got, err := s.DeploymentTokens(t.Context(), day); err != nil || got != 130 {
		t.Errorf("DeploymentTokens = %d, %v; want 130: every tenant's, a use recorded twice once", got, err)
	}
	if got, err := s.DeploymentTokens(t.Context(), newID("day")); err != nil || got != 0 {
		t.Errorf("DeploymentTokens of a day with no use = %d, %v; want 0", got, err)
	}
}

func testPutBudget(t *testing.T, s store.Store) {
	tenant := "org:" + newID("org")
	if _, err := s.GetBudget(t.Context(), tenant); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetBudget of a tenant without one = %v, want ErrNotFound", err)
	}
	at := time.Now().UTC().Truncate(time.Millisecond)
	for _, b := range []store.Budget{
		{Tenant: tenant, TokensPerDay: 1000, CaseTokensPerDay: 100, SetBy: "ada", UpdatedAt: at},
		{Tenant: tenant, TokensPerDay: 5000, SetBy: "bob", UpdatedAt: at.Add(time.Minute)},
	} {
		if err := s.PutBudget(t.Context(), b); err != nil {
			t.Fatalf("PutBudget = %v", err)
		}
		got, err := s.GetBudget(t.Context(), tenant)
		if err != nil || !sameTime(got.UpdatedAt, b.UpdatedAt) {
			t.Fatalf("GetBudget = %+v, %v; want %+v", got, err, b)
		}
		got.UpdatedAt = b.UpdatedAt
		if got != b {
			t.Errorf("GetBudget = %+v, want %+v (the latest put replaces the earlier)", got, b)
		}
	}
}
