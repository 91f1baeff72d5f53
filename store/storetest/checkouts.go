package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// checkoutTests check store.Checkouts.
var checkoutTests = []subtest{
	{"OpenIsIdempotent", testOpenCheckoutIsIdempotent},
	{"GetMissingIsNotFound", testGetMissingCheckout},
	{"FirstEventPays", testFirstEventPays},
	{"ConcurrentEventsOneWins", testConcurrentEventsOneWins},
}

// newCheckout is an open checkout of a new case.
func newCheckout() store.Checkout {
	return store.Checkout{ID: newID("cs_test"), Provider: "test", CaseID: newID("case"), OrgID: "acme", UserID: "alice",
		Tier: 2, Amount: 14900, Currency: "eur", URL: "https://pay.example/cs", CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
}

func openCheckout(t *testing.T, s store.Store, c store.Checkout) store.Checkout {
	t.Helper()
	got, err := s.OpenCheckout(t.Context(), c)
	if err != nil {
		t.Fatalf("OpenCheckout = %v", err)
	}
	return got
}

func testOpenCheckoutIsIdempotent(t *testing.T, s store.Store) {
	c := newCheckout()
	first := openCheckout(t, s, c)
	if first.Status != store.CheckoutOpen || first.CaseID != c.CaseID || first.Amount != c.Amount || first.Currency != c.Currency ||
		first.Tier != c.Tier || first.OrgID != c.OrgID || first.UserID != c.UserID || first.URL != c.URL || !first.CreatedAt.Equal(c.CreatedAt) {
		t.Fatalf("OpenCheckout = %+v, want %+v, open", first, c)
	}
	again := c
	again.Amount = 1
	if got := openCheckout(t, s, again); got.Amount != c.Amount {
		t.Errorf("OpenCheckout again with another amount stored %d, want the first %d", got.Amount, c.Amount)
	}
}

func testGetMissingCheckout(t *testing.T, s store.Store) {
	if _, err := s.GetCheckout(t.Context(), newID("cs_missing")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetCheckout(missing) = %v, want ErrNotFound", err)
	}
	if _, err := s.MarkCheckoutPaid(t.Context(), newID("cs_missing"), "evt_1", time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("MarkCheckoutPaid(missing) = %v, want ErrNotFound", err)
	}
}

func testFirstEventPays(t *testing.T, s store.Store) {
	c := openCheckout(t, s, newCheckout())
	at := time.Now().UTC().Truncate(time.Millisecond)
	paid, err := s.MarkCheckoutPaid(t.Context(), c.ID, "evt_first", at)
	if err != nil || paid.Status != store.CheckoutPaid || paid.EventID != "evt_first" || !paid.PaidAt.Equal(at) {
		t.Fatalf("MarkCheckoutPaid = %+v, %v; want paid by evt_first at %v", paid, err, at)
	}
	again, err := s.MarkCheckoutPaid(t.Context(), c.ID, "evt_second", at.Add(time.Minute))
	if err != nil || again.EventID != "evt_first" || !again.PaidAt.Equal(at) {
		t.Errorf("MarkCheckoutPaid by a second event = %+v, %v; want still paid by evt_first", again, err)
	}
	if got := openCheckout(t, s, c); got.Status != store.CheckoutPaid {
		t.Errorf("OpenCheckout of a paid checkout reopened it: %+v", got)
	}
}

func testConcurrentEventsOneWins(t *testing.T, s store.Store) {
	c := openCheckout(t, s, newCheckout())
	const n = 8
	won := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			got, err := s.MarkCheckoutPaid(t.Context(), c.ID, newID("evt"), time.Now())
			if err != nil {
				t.Errorf("MarkCheckoutPaid = %v", err)
			}
			won[i] = got.EventID
		})
	}
	wg.Wait()
	for _, w := range won[1:] {
		if w != won[0] || w == "" {
			t.Fatalf("concurrent events saw different winners: %v", won)
		}
	}
}
