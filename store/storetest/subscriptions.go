package storetest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/store"
)

// subscriptionTests check store.Subscriptions.
var subscriptionTests = []subtest{
	{"GetMissingIsNotFound", testGetMissingSubscription},
	{"PutCreatesThenReplacesPlanAndCredits", testPutSubscription},
	{"UseCreditOncePerCase", testUseCreditOncePerCase},
	{"UseCreditWithoutSubscription", testUseCreditWithoutSubscription},
	{"ConcurrentUseCreditNeverOverspends", testConcurrentUseCredit},
	{"ConcurrentUseCreditForOneCaseUsesOne", testConcurrentUseCreditOneCase},
}

// putSubscription creates a subscription that must be created and returns it.
func putSubscription(t *testing.T, s store.Store, plan string, credits map[string]int) store.Subscription {
	t.Helper()
	sub, err := s.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID(newID("user"), ""), Plan: plan, Credits: credits})
	if err != nil {
		t.Fatalf("PutSubscription = %v", err)
	}
	return sub
}

// getSubscription reads a subscription that must exist.
func getSubscription(t *testing.T, s store.Store, id string) store.Subscription {
	t.Helper()
	sub, err := s.GetSubscription(t.Context(), id)
	if err != nil {
		t.Fatalf("GetSubscription = %v", err)
	}
	return sub
}

// sortedCases returns a subscription's cases, sorted.
func sortedCases(sub store.Subscription) []string {
	return slices.Sorted(slices.Values(sub.Cases))
}

func testGetMissingSubscription(t *testing.T, s store.Store) {
	for _, id := range []string{store.SubscriptionID(newID("user"), ""), store.SubscriptionID("", newID("org"))} {
		if _, err := s.GetSubscription(t.Context(), id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("GetSubscription(%s) = %v, want ErrNotFound", id, err)
		}
	}
}

func testPutSubscription(t *testing.T, s store.Store) {
	id := store.SubscriptionID("", newID("org"))
	check := func(what string, sub store.Subscription, plan string, credits map[string]int, cases []string) {
		t.Helper()
		if sub.ID != id || sub.Plan != plan || !maps.Equal(sub.Credits, credits) || !slices.Equal(sortedCases(sub), cases) || !recent(sub.UpdatedAt) {
			t.Errorf("%s = %+v\nwant plan %s, credits %v, cases %v, updated about now", what, sub, plan, credits, cases)
		}
	}
	basic := map[string]int{"1": 2, "2": 1}
	sub, err := s.PutSubscription(t.Context(), store.Subscription{ID: id, Plan: "basic", Credits: basic})
	if err != nil {
		t.Fatalf("PutSubscription = %v", err)
	}
	check("new subscription", sub, "basic", basic, nil)
	check("GetSubscription", getSubscription(t, s, id), "basic", basic, nil)

	caseID := newID("case")
	if ok, err := s.UseCredit(t.Context(), id, 1, caseID); err != nil || !ok {
		t.Fatalf("UseCredit = %v, %v; want true", ok, err)
	}
	pro := map[string]int{"2": 5, "3": 1}
	sub, err = s.PutSubscription(t.Context(), store.Subscription{ID: id, Plan: "pro", Credits: pro})
	if err != nil {
		t.Fatalf("PutSubscription replacing = %v", err)
	}
	check("replaced subscription", sub, "pro", pro, []string{caseID})
	check("GetSubscription after the replacement", getSubscription(t, s, id), "pro", pro, []string{caseID})
}

func testUseCreditOncePerCase(t *testing.T, s store.Store) {
	sub := putSubscription(t, s, "basic", map[string]int{"1": 2, "2": 1})
	c1, c2, c3, c4, c5 := newID("case"), newID("case"), newID("case"), newID("case"), newID("case")
	for _, tc := range []struct {
		tier   int
		caseID string
		want   bool
		left   int // credits of the tier left after the call
	}{
		{2, c1, true, 0},
		{2, c1, true, 0},  // asked again: the case has its credit still
		{2, c2, false, 0}, // no tier 2 credit is left
		{3, c3, false, 0}, // the plan has no tier 3 credits
		{1, c3, true, 1},
		{1, c3, true, 1}, // asked again while a credit is left: it uses none
		{1, c1, true, 1}, // a case that used a credit has it, whatever tier it asks for
		{1, c4, true, 0},
		{1, c5, false, 0},
	} {
		got, err := s.UseCredit(t.Context(), sub.ID, tc.tier, tc.caseID)
		if err != nil || got != tc.want {
			t.Errorf("UseCredit(tier %d, %s) = %v, %v; want %v", tc.tier, tc.caseID, got, err, tc.want)
		}
		if left := getSubscription(t, s, sub.ID).Credits[strconv.Itoa(tc.tier)]; left != tc.left {
			t.Errorf("after UseCredit(tier %d, %s), %d credits of the tier are left, want %d", tc.tier, tc.caseID, left, tc.left)
		}
	}
	after := getSubscription(t, s, sub.ID)
	if !maps.Equal(after.Credits, map[string]int{"1": 0, "2": 0}) {
		t.Errorf("credits after use = %v, want none left", after.Credits)
	}
	if want := slices.Sorted(slices.Values([]string{c1, c3, c4})); !slices.Equal(sortedCases(after), want) {
		t.Errorf("cases that used credits = %v, want %v", after.Cases, want)
	}
}

func testUseCreditWithoutSubscription(t *testing.T, s store.Store) {
	ok, err := s.UseCredit(t.Context(), store.SubscriptionID(newID("user"), ""), 1, newID("case"))
	if ok {
		t.Fatalf("UseCredit of a missing subscription = true, %v; want false or an error", err)
	}
}

func testConcurrentUseCredit(t *testing.T, s store.Store) {
	const credits, cases = 3, 8
	sub := putSubscription(t, s, "basic", map[string]int{"1": credits})
	got := make([]bool, cases)
	errs := make([]error, cases)
	caseIDs := make([]string, cases)
	var wg sync.WaitGroup
	for i := range cases {
		caseIDs[i] = newID("case")
		wg.Go(func() { got[i], errs[i] = s.UseCredit(t.Context(), sub.ID, 1, caseIDs[i]) })
	}
	wg.Wait()
	var used []string
	for i := range cases {
		if errs[i] != nil {
			t.Errorf("case %d: UseCredit = %v", i, errs[i])
		}
		if got[i] {
			used = append(used, caseIDs[i])
		}
	}
	if len(used) != credits {
		t.Errorf("%d of %d cases got one of %d credits", len(used), cases, credits)
	}
	after := getSubscription(t, s, sub.ID)
	if after.Credits["1"] != 0 {
		t.Errorf("credits left = %v, want 0", after.Credits)
	}
	slices.Sort(used)
	if !slices.Equal(sortedCases(after), used) {
		t.Errorf("cases that used credits = %v, want the %d told yes: %v", after.Cases, len(used), used)
	}
}

func testConcurrentUseCreditOneCase(t *testing.T, s store.Store) {
	const askers = 6
	sub := putSubscription(t, s, "basic", map[string]int{"1": 5})
	caseID := newID("case")
	errs := make([]error, askers)
	var wg sync.WaitGroup
	for i := range askers {
		wg.Go(func() {
			ok, err := s.UseCredit(t.Context(), sub.ID, 1, caseID)
			if err == nil && !ok {
				err = fmt.Errorf("no credit, with 5 left")
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("asker %d: UseCredit = %v", i, err)
		}
	}
	after := getSubscription(t, s, sub.ID)
	if after.Credits["1"] != 4 || !slices.Equal(after.Cases, []string{caseID}) {
		t.Errorf("after one case asked %d times: credits %v, cases %v; want one credit used by %s", askers, after.Credits, after.Cases, caseID)
	}
}
