package storetest

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// ticketTests check store.Tickets.
var ticketTests = []subtest{
	{"CreateIsIdempotent", testCreateTicketIsIdempotent},
	{"ListOldestFirst", testListTicketsOldestFirst},
	{"ResolveOnlyOpenTicketsOfTheCase", testResolveTickets},
	{"ConcurrentResolveCountsEachTicketOnce", testConcurrentResolveTickets},
}

// createTicket stores a ticket that must be stored and returns it.
func createTicket(t *testing.T, s store.Store, tk store.Ticket) store.Ticket {
	t.Helper()
	got, err := s.CreateTicket(t.Context(), tk)
	if err != nil {
		t.Fatalf("CreateTicket = %v", err)
	}
	return got
}

// listTickets lists a case's tickets, failing t on an error.
func listTickets(t *testing.T, s store.Store, caseID string) []store.Ticket {
	t.Helper()
	got, err := s.ListTickets(t.Context(), caseID)
	if err != nil {
		t.Fatalf("ListTickets = %v", err)
	}
	return got
}

func ticketIDs(tks []store.Ticket) []string {
	out := make([]string, len(tks))
	for i, tk := range tks {
		out[i] = tk.ID
	}
	return out
}

// sameResolution reports whether a resolution read back is r.
func sameResolution(got *store.Resolution, r store.Resolution) bool {
	return got != nil && got.Action == r.Action && got.Note == r.Note && got.By == r.By && sameTime(got.At, r.At)
}

func testCreateTicketIsIdempotent(t *testing.T, s store.Store) {
	in := store.Ticket{ID: newID("ticket"), CaseID: newID("case"), UserID: newID("user"),
		Description: "normattiva_search keeps failing",
		Snapshot:    map[string]any{"phase": "active", "last_tool": map[string]any{"name": "normattiva_search", "args": []any{"a", "b"}}}}
	check := func(what string, got store.Ticket) {
		t.Helper()
		if got.ID != in.ID || got.CaseID != in.CaseID || got.UserID != in.UserID || got.Description != in.Description ||
			!reflect.DeepEqual(got.Snapshot, in.Snapshot) || got.Status != store.TicketOpen || got.Resolution != nil || !recent(got.CreatedAt) {
			t.Errorf("%s = %+v\nwant %+v, open, created about now", what, got, in)
		}
	}
	first := createTicket(t, s, in)
	check("CreateTicket", first)
	retry := in
	retry.UserID, retry.Description, retry.Snapshot = "someone else", "changed", map[string]any{"phase": "closed"}
	again := createTicket(t, s, retry)
	check("second CreateTicket", again)
	if !sameTime(again.CreatedAt, first.CreatedAt) {
		t.Errorf("second CreateTicket's created_at = %v, want the first's %v", again.CreatedAt, first.CreatedAt)
	}
	listed := listTickets(t, s, in.CaseID)
	if len(listed) != 1 {
		t.Fatalf("ListTickets = %v, want one ticket", ticketIDs(listed))
	}
	check("listed ticket", listed[0])
}

func testListTicketsOldestFirst(t *testing.T, s store.Store) {
	caseID, other := newID("case"), newID("case")
	// IDs in the reverse of the order of creation, so that a list by ID fails.
	var created []store.Ticket
	for _, prefix := range []string{"z", "m", "a"} {
		created = append(created, createTicket(t, s, store.Ticket{ID: newID(prefix + "-ticket"), CaseID: caseID, UserID: "alice", Description: prefix}))
		createTicket(t, s, store.Ticket{ID: newID(prefix + "-ticket"), CaseID: other, UserID: "bob", Description: prefix})
	}
	byCreatedAt := func(a, b store.Ticket) int { return a.CreatedAt.Compare(b.CreatedAt) }
	if !slices.IsSortedFunc(created, byCreatedAt) {
		t.Errorf("tickets created one after the other were stamped %v, %v, %v; want later ones no older",
			created[0].CreatedAt, created[1].CreatedAt, created[2].CreatedAt)
	}
	got := listTickets(t, s, caseID)
	wantIDs := slices.Sorted(slices.Values(ticketIDs(created)))
	if !slices.Equal(slices.Sorted(slices.Values(ticketIDs(got))), wantIDs) {
		t.Fatalf("ListTickets = %v, want the case's %v", ticketIDs(got), ticketIDs(created))
	}
	// Tickets a store stamped with one time are equally old, in either order.
	if !slices.IsSortedFunc(got, byCreatedAt) {
		t.Errorf("ListTickets = %+v, want oldest first", got)
	}
	for _, tk := range got {
		i := slices.IndexFunc(created, func(c store.Ticket) bool { return c.ID == tk.ID })
		if !sameTime(tk.CreatedAt, created[i].CreatedAt) {
			t.Errorf("ticket %s is listed created at %v, CreateTicket said %v", tk.ID, tk.CreatedAt, created[i].CreatedAt)
		}
	}
}

func testResolveTickets(t *testing.T, s store.Store) {
	caseID, other := newID("case"), newID("case")
	resolve := func(caseID string, r store.Resolution, want int) {
		t.Helper()
		n, err := s.ResolveTickets(t.Context(), caseID, r)
		if err != nil || n != want {
			t.Errorf("ResolveTickets = %d, %v; want %d", n, err, want)
		}
	}
	first := createTicket(t, s, store.Ticket{ID: newID("ticket"), CaseID: caseID, UserID: "alice", Description: "one"})
	second := createTicket(t, s, store.Ticket{ID: newID("ticket"), CaseID: caseID, UserID: "alice", Description: "two"})
	others := createTicket(t, s, store.Ticket{ID: newID("ticket"), CaseID: other, UserID: "bob", Description: "other"})
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	retry := store.Resolution{Action: "retry", Note: "upstream is back", By: "sam", At: at}
	resolve(caseID, retry, 2)

	third := createTicket(t, s, store.Ticket{ID: newID("ticket"), CaseID: caseID, UserID: "alice", Description: "three"})
	closing := store.Resolution{Action: "close", Note: "client withdrew", By: "kim", At: at.Add(time.Hour)}
	resolve(caseID, closing, 1)
	resolve(caseID, closing, 0)
	resolve(newID("case"), closing, 0)

	byID := map[string]store.Ticket{}
	for _, tk := range listTickets(t, s, caseID) {
		byID[tk.ID] = tk
	}
	for _, tc := range []struct {
		ticket store.Ticket
		want   store.Resolution
	}{{first, retry}, {second, retry}, {third, closing}} {
		got, ok := byID[tc.ticket.ID]
		if !ok || got.Status != store.TicketResolved || !sameResolution(got.Resolution, tc.want) {
			t.Errorf("ticket %q = %+v, resolution %+v; want resolved by %+v", tc.ticket.Description, got, got.Resolution, tc.want)
		}
	}
	if got := listTickets(t, s, other); len(got) != 1 || got[0].ID != others.ID || got[0].Status != store.TicketOpen || got[0].Resolution != nil {
		t.Errorf("the other case's tickets = %+v, want its ticket open", got)
	}
}

func testConcurrentResolveTickets(t *testing.T, s store.Store) {
	const tickets, resolvers = 4, 4
	caseID := newID("case")
	for i := range tickets {
		createTicket(t, s, store.Ticket{ID: newID("ticket"), CaseID: caseID, UserID: "alice", Description: fmt.Sprintf("ticket %d", i)})
	}
	counts := make([]int, resolvers)
	errs := make([]error, resolvers)
	var wg sync.WaitGroup
	for i := range resolvers {
		wg.Go(func() {
			counts[i], errs[i] = s.ResolveTickets(t.Context(), caseID, store.Resolution{Action: "retry", By: fmt.Sprintf("resolver %d", i), At: time.Now()})
		})
	}
	wg.Wait()
	resolvedBy := make([]int, resolvers)
	for _, tk := range listTickets(t, s, caseID) {
		var by int
		if tk.Status != store.TicketResolved || tk.Resolution == nil {
			t.Errorf("ticket %q = %+v, want it resolved", tk.Description, tk)
		} else if _, err := fmt.Sscanf(tk.Resolution.By, "resolver %d", &by); err != nil || by < 0 || by >= resolvers {
			t.Errorf("ticket %q resolved by %q", tk.Description, tk.Resolution.By)
		} else {
			resolvedBy[by]++
		}
	}
	for i := range resolvers {
		if errs[i] != nil {
			t.Errorf("resolver %d: ResolveTickets = %v", i, errs[i])
		}
	}
	if !slices.Equal(counts, resolvedBy) {
		t.Errorf("resolvers said they resolved %v tickets; the tickets carry their resolutions %v times", counts, resolvedBy)
	}
}
