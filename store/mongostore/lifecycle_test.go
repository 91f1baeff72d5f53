package mongostore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

func TestConcurrentWritersKeepEachOthersChanges(t *testing.T) {
	s, ctx := open(t), context.Background()
	if _, err := s.CreateCase(ctx, store.Case{ID: "cw", UserID: "alice", Details: store.NewDetails("x")}); err != nil {
		t.Fatal(err)
	}
	const writers = 8
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.UpdateDetails(ctx, "cw", 0, map[string]any{
				fmt.Sprintf("notes_by.w%d", i): i,
				"facts":                        []any{map[string]any{"fact": fmt.Sprintf("fact %d", i)}},
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.GetCase(ctx, "cw")
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != writers {
		t.Errorf("version = %d, want %d", c.Version, writers)
	}
	if facts := c.Details["facts"].([]any); len(facts) != writers {
		t.Errorf("facts = %d, want %d: a writer's append was lost", len(facts), writers)
	}
	if by := c.Details["notes_by"].(map[string]any); len(by) != writers {
		t.Errorf("notes_by = %v, want %d fields", by, writers)
	}
}

func TestExpectedVersion(t *testing.T) {
	s, ctx := open(t), context.Background()
	if _, err := s.CreateCase(ctx, store.Case{ID: "ev", UserID: "alice", Details: store.NewDetails("x")}); err != nil {
		t.Fatal(err)
	}
	v, err := s.UpdateDetails(ctx, "ev", 0, map[string]any{"summary.current": "one"})
	if err != nil || v != 1 {
		t.Fatalf("first update = %d, %v", v, err)
	}
	// Two writers read version 1; the first to write wins, the second is told.
	if v, err := s.UpdateDetails(ctx, "ev", 1, map[string]any{"summary.current": "two"}); err != nil || v != 2 {
		t.Fatalf("update at version 1 = %d, %v", v, err)
	}
	_, err = s.UpdateDetails(ctx, "ev", 1, map[string]any{"summary.current": "stale"})
	if !errors.Is(err, store.ErrVersionConflict) {
		t.Fatalf("stale update = %v, want ErrVersionConflict", err)
	}
	c, _ := s.GetCase(ctx, "ev")
	if got := c.Details["summary"].(map[string]any)["current"]; got != "two" || c.Version != 2 {
		t.Fatalf("summary = %v at version %d, want two at 2", got, c.Version)
	}
	if _, err := s.UpdateDetails(ctx, "missing", 3, map[string]any{"a": 1}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing case = %v, want ErrNotFound", err)
	}
}

func TestPaymentIsRecordedOnce(t *testing.T) {
	s, ctx := open(t), context.Background()
	if _, err := s.CreateCase(ctx, store.Case{ID: "pay", UserID: "alice", Details: store.NewDetails("x")}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	first, err := s.SetPayment(ctx, "pay", store.Payment{Reference: "PAY-1", By: "alice", At: at})
	if err != nil || first.Reference != "PAY-1" {
		t.Fatalf("first payment = %+v, %v", first, err)
	}
	again, err := s.SetPayment(ctx, "pay", store.Payment{Reference: "PAY-2", By: "alice", At: at.Add(time.Hour)})
	if err != nil || again.Reference != "PAY-1" || !again.At.Equal(at) {
		t.Fatalf("second payment = %+v, %v; want the first kept", again, err)
	}
	if _, err := s.SetPayment(ctx, "missing", store.Payment{Reference: "x"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("payment of a missing case = %v", err)
	}
}

func TestCreditsAreUsedOncePerCase(t *testing.T) {
	s, ctx := open(t), context.Background()
	id := store.SubscriptionID("alice", "")
	if _, err := s.GetSubscription(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing subscription = %v", err)
	}
	if _, err := s.PutSubscription(ctx, store.Subscription{ID: id, Plan: "basic", Credits: map[string]int{"1": 2, "2": 1}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tier int
		cas  string
		want bool
	}{
		{2, "c1", true}, {2, "c1", true}, {2, "c2", false}, {3, "c3", false}, {1, "c3", true}, {1, "c4", true}, {1, "c5", false},
	} {
		got, err := s.UseCredit(ctx, id, tc.tier, tc.cas)
		if err != nil || got != tc.want {
			t.Errorf("UseCredit(tier %d, %s) = %v, %v; want %v", tc.tier, tc.cas, got, err, tc.want)
		}
	}
	sub, _ := s.GetSubscription(ctx, id)
	if sub.Credits["1"] != 0 || sub.Credits["2"] != 0 || len(sub.Cases) != 3 {
		t.Fatalf("subscription after use = %+v", sub)
	}
	// Topping up keeps the cases that used credits.
	sub, err := s.PutSubscription(ctx, store.Subscription{ID: id, Plan: "pro", Credits: map[string]int{"2": 5}})
	if err != nil || sub.Plan != "pro" || len(sub.Cases) != 3 {
		t.Fatalf("top-up = %+v, %v", sub, err)
	}
}

func TestTicketsAreIdempotentAndResolved(t *testing.T) {
	s, ctx := open(t), context.Background()
	tk := store.Ticket{ID: "ticket-c1-1", CaseID: "c1", UserID: "alice", Description: "normattiva_search keeps failing",
		Snapshot: map[string]any{"phase": "active"}}
	first, err := s.CreateTicket(ctx, tk)
	if err != nil || first.Status != store.TicketOpen || first.Snapshot["phase"] != "active" {
		t.Fatalf("create = %+v, %v", first, err)
	}
	tk.Description = "changed"
	again, err := s.CreateTicket(ctx, tk)
	if err != nil || again.Description != first.Description {
		t.Fatalf("second create = %+v, %v; want the first", again, err)
	}
	n, err := s.ResolveTickets(ctx, "c1", store.Resolution{Action: "retry", Note: "upstream back", By: "sam"})
	if err != nil || n != 1 {
		t.Fatalf("resolve = %d, %v", n, err)
	}
	list, err := s.ListTickets(ctx, "c1")
	if err != nil || len(list) != 1 || list[0].Status != store.TicketResolved || list[0].Resolution.By != "sam" {
		t.Fatalf("tickets = %+v, %v", list, err)
	}
	if n, _ := s.ResolveTickets(ctx, "c1", store.Resolution{Action: "close"}); n != 0 {
		t.Fatalf("resolving again resolved %d", n)
	}
}
