package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// erasureTests check store.Erasures.
var erasureTests = []subtest{
	{"HoldBlocksErasure", testHoldBlocksErasure},
	{"NoHoldOnceErasing", testNoHoldOnceErasing},
	{"EraseDeletesTheCaseData", testEraseCaseData},
	{"ReceiptOutlivesTheCase", testErasureReceipt},
	{"MissingIsNotFound", testErasureMissing},
	{"ExpiredCases", testExpiredCases},
	{"StalledErasures", testStalledErasures},
	{"ErasedCasesLeaveTheListButCount", testErasedCasesCount},
	{"HoldsSurviveConcurrentUpdates", testHoldsSurviveConcurrentUpdates},
	{"AnOrganizationChangesOnlyItsOwnHold", testOthersHold},
}

// beginErasure begins the erasure of case id, which must begin.
func beginErasure(t *testing.T, s store.Store, id string) schemas.Erasure {
	t.Helper()
	e, err := s.BeginErasure(t.Context(), schemas.Erasure{CaseID: id, RequestedBy: "the-owner",
		Reason: schemas.ErasureRequested, RequestedAt: time.Now().UTC()})
	if err != nil {
		t.Fatalf("BeginErasure = %v", err)
	}
	return e
}

func testHoldBlocksErasure(t *testing.T, s store.Store) {
	c := createCase(t, s)
	h := store.Hold{By: "admin-1", Reason: "litigation pending", At: time.Now().UTC()}
	if err := s.SetHold(t.Context(), c.ID, "", &h); err != nil {
		t.Fatalf("SetHold = %v", err)
	}
	got := getCase(t, s, c.ID)
	if got.Hold == nil || got.Hold.By != h.By || got.Hold.Reason != h.Reason || !sameTime(got.Hold.At, h.At) {
		t.Fatalf("GetCase's hold = %+v, want %+v", got.Hold, h)
	}
	if _, err := s.BeginErasure(t.Context(), schemas.Erasure{CaseID: c.ID, RequestedBy: "x"}); !errors.Is(err, store.ErrHeld) {
		t.Fatalf("BeginErasure of a held case = %v, want ErrHeld", err)
	}
	if _, err := s.GetErasure(t.Context(), c.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetErasure after a refused erasure = %v, want ErrNotFound", err)
	}
	if err := s.SetHold(t.Context(), c.ID, "", nil); err != nil {
		t.Fatalf("SetHold(nil) = %v", err)
	}
	if got := getCase(t, s, c.ID); got.Hold != nil {
		t.Fatalf("hold after lifting it = %+v", got.Hold)
	}
	if e := beginErasure(t, s, c.ID); e.CaseID != c.ID {
		t.Errorf("receipt = %+v", e)
	}
}

func testNoHoldOnceErasing(t *testing.T, s store.Store) {
	c := createCase(t, s)
	beginErasure(t, s, c.ID)
	err := s.SetHold(t.Context(), c.ID, "", &store.Hold{By: "admin-1", Reason: "too late", At: time.Now().UTC()})
	if !errors.Is(err, store.ErrErasing) {
		t.Fatalf("SetHold on a case being erased = %v, want ErrErasing", err)
	}
	if err := s.SetHold(t.Context(), newID("case"), "", &store.Hold{By: "a"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetHold on a missing case = %v, want ErrNotFound", err)
	}
}

// fillCase gives case c two records, a party, a ticket and three events.
func fillCase(t *testing.T, s store.Store, c store.Case) {
	t.Helper()
	appendRecords(t, s, record(c.ID, 1, 1), record(c.ID, 1, 2))
	if _, err := s.AddParty(t.Context(), store.Party{CaseID: c.ID, FirstName: "Ion"}); err != nil {
		t.Fatalf("AddParty = %v", err)
	}
	createTicket(t, s, store.Ticket{ID: newID("ticket"), CaseID: c.ID, UserID: c.UserID, Description: "stuck", Status: store.TicketOpen})
	if _, err := s.AppendEvents(t.Context(), c.ID, event("e1", "a"), event("e2", "b"), event("e3", "c")); err != nil {
		t.Fatalf("AppendEvents = %v", err)
	}
}

func testEraseCaseData(t *testing.T, s store.Store) {
	c, other := createCase(t, s), createCase(t, s)
	fillCase(t, s, c)
	fillCase(t, s, other)
	beginErasure(t, s, c.ID)
	got, err := s.EraseCaseData(t.Context(), c.ID)
	want := schemas.Erased{Cases: 1, Records: 2, Parties: 1, Tickets: 1, Events: 3}
	if err != nil || got != want {
		t.Fatalf("EraseCaseData = %+v, %v; want %+v", got, err, want)
	}
	if _, err := s.GetCase(t.Context(), c.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetCase after erasure = %v, want ErrNotFound", err)
	}
	if recs := listRecords(t, s, c.ID, 0, 0); len(recs) != 0 {
		t.Errorf("records after erasure: %d", len(recs))
	}
	if ps, err := s.ListParties(t.Context(), c.ID); err != nil || len(ps) != 0 {
		t.Errorf("ListParties after erasure = %d, %v", len(ps), err)
	}
	if tks := listTickets(t, s, c.ID); len(tks) != 0 {
		t.Errorf("tickets after erasure: %d", len(tks))
	}
	if evs := listEvents(t, s, c.ID, 0, 10); len(evs) != 0 {
		t.Errorf("events after erasure: %d", len(evs))
	}
	// A straggler written after the erasure (a late activity) goes with the next one.
	appendRecords(t, s, record(c.ID, 2, 1))
	if _, err := s.AppendEvents(t.Context(), c.ID, event("late", "a")); err != nil {
		t.Fatalf("AppendEvents after erasure = %v", err)
	}
	if got, err := s.EraseCaseData(t.Context(), c.ID); err != nil || got != (schemas.Erased{Records: 1, Events: 1}) {
		t.Errorf("EraseCaseData again = %+v, %v; want the straggler's record and event", got, err)
	}
	// The other case keeps everything.
	getCase(t, s, other.ID)
	if n := len(listRecords(t, s, other.ID, 0, 0)); n != 2 {
		t.Errorf("the other case has %d records, want 2", n)
	}
	if n := len(listEvents(t, s, other.ID, 0, 10)); n != 3 {
		t.Errorf("the other case has %d events, want 3", n)
	}
}

func testErasureReceipt(t *testing.T, s store.Store) {
	c := createCase(t, s)
	asked := time.Now().UTC()
	e, err := s.BeginErasure(t.Context(), schemas.Erasure{CaseID: c.ID, RequestedBy: "admin-1",
		Reason: schemas.ErasureRequested, RequestedAt: asked, OrgID: "forged", UserID: "forged"})
	if err != nil {
		t.Fatal(err)
	}
	if e.OrgID != c.OrgID || e.UserID != c.UserID || !sameTime(e.CaseCreatedAt, c.CreatedAt) || e.RequestedBy != "admin-1" ||
		e.Reason != schemas.ErasureRequested || e.ErasedAt != nil || !sameTime(e.RequestedAt, asked) {
		t.Fatalf("receipt = %+v; want the stored case's owner, unfinished", e)
	}
	if _, err := s.EraseCaseData(t.Context(), c.ID); err != nil {
		t.Fatal(err)
	}
	destroyed := time.Now().UTC()
	erased := schemas.Erased{Cases: 1, Records: 4, Blobs: 2, KeyDestroyedAt: &destroyed}
	done := time.Now().UTC()
	got, err := s.FinishErasure(t.Context(), c.ID, erased, done)
	if err != nil || got.ErasedAt == nil || !sameTime(*got.ErasedAt, done) || got.Erased.Records != 4 || got.Erased.Blobs != 2 ||
		got.Erased.KeyDestroyedAt == nil || !sameTime(*got.Erased.KeyDestroyedAt, destroyed) {
		t.Fatalf("FinishErasure = %+v, %v", got, err)
	}
	if again, err := s.FinishErasure(t.Context(), c.ID, schemas.Erased{}, done.Add(time.Hour)); err != nil ||
		!sameTime(*again.ErasedAt, done) || again.Erased.Records != 4 {
		t.Errorf("FinishErasure again = %+v, %v; want the first", again, err)
	}
	// Beginning again, the case gone, answers with the receipt.
	again, err := s.BeginErasure(t.Context(), schemas.Erasure{CaseID: c.ID, RequestedBy: "someone-else"})
	if err != nil || again.RequestedBy != "admin-1" || again.ErasedAt == nil {
		t.Errorf("BeginErasure after the erasure = %+v, %v; want the receipt", again, err)
	}
	if got, err := s.GetErasure(t.Context(), c.ID); err != nil || got.CaseID != c.ID || got.ErasedAt == nil {
		t.Errorf("GetErasure = %+v, %v", got, err)
	}
}

func testErasureMissing(t *testing.T, s store.Store) {
	id := newID("case")
	if _, err := s.BeginErasure(t.Context(), schemas.Erasure{CaseID: id}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("BeginErasure of a missing case = %v, want ErrNotFound", err)
	}
	if _, err := s.FinishErasure(t.Context(), id, schemas.Erased{}, time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FinishErasure of a case never begun = %v, want ErrNotFound", err)
	}
	if _, err := s.GetErasure(t.Context(), id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetErasure = %v, want ErrNotFound", err)
	}
}

func testExpiredCases(t *testing.T, s store.Store) {
	org := newID("org")
	mk := func(status string) store.Case {
		c := newCase()
		c.OrgID = org
		c, err := s.CreateCase(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetPhase(t.Context(), c.ID, "closed", status); err != nil {
			t.Fatal(err)
		}
		return c
	}
	first, second := mk("closed"), mk("closed")
	held, erasing := mk("closed"), mk("closed")
	mk("active")
	if err := s.SetHold(t.Context(), held.ID, "", &store.Hold{By: "admin", Reason: "r", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	beginErasure(t, s, erasing.ID)
	elsewhere := createCase(t, s)
	if err := s.SetPhase(t.Context(), elsewhere.ID, "closed", "closed"); err != nil {
		t.Fatal(err)
	}
	// Two cases closed within a millisecond may come in either order.
	later := time.Now().Add(clockSkew)
	got, err := s.ExpiredCases(t.Context(), org, later, 10)
	slices.Sort(got)
	want := []string{first.ID, second.ID}
	slices.Sort(want)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("ExpiredCases = %v, %v; want the organization's two closed cases neither held nor being erased: %v", got, err, want)
	}
	if got, err := s.ExpiredCases(t.Context(), org, later, 1); err != nil || len(got) != 1 || !slices.Contains(want, got[0]) {
		t.Errorf("ExpiredCases limit 1 = %v, %v", got, err)
	}
	if got, err := s.ExpiredCases(t.Context(), org, time.Now().Add(-clockSkew), 10); err != nil || len(got) != 0 {
		t.Errorf("ExpiredCases before they closed = %v, %v; want none", got, err)
	}
}

func testStalledErasures(t *testing.T, s store.Store) {
	stalled, finished := createCase(t, s), createCase(t, s)
	beginErasure(t, s, stalled.ID)
	beginErasure(t, s, finished.ID)
	if _, err := s.EraseCaseData(t.Context(), finished.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishErasure(t.Context(), finished.ID, schemas.Erased{Cases: 1}, time.Now()); err != nil {
		t.Fatal(err)
	}
	got, err := s.StalledErasures(t.Context(), time.Now().Add(clockSkew), 1000)
	if err != nil || !slices.Contains(got, stalled.ID) || slices.Contains(got, finished.ID) {
		t.Errorf("StalledErasures = %v, %v; want %s and not the finished %s", got, err, stalled.ID, finished.ID)
	}
	// Its data deleted, the erasure is stalled still, by its receipt.
	if _, err := s.EraseCaseData(t.Context(), stalled.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.StalledErasures(t.Context(), time.Now().Add(clockSkew), 1000); err != nil || !slices.Contains(got, stalled.ID) {
		t.Errorf("StalledErasures after the data went = %v, %v; want %s", got, err, stalled.ID)
	}
	if got, err := s.StalledErasures(t.Context(), time.Now().Add(-clockSkew), 1000); err != nil || slices.Contains(got, stalled.ID) {
		t.Errorf("StalledErasures begun before it = %v, %v", got, err)
	}
}

func testErasedCasesCount(t *testing.T, s store.Store) {
	c := createCase(t, s)
	since := c.CreatedAt.Add(-time.Second)
	count := func() int {
		t.Helper()
		n, err := s.CountCases(t.Context(), c.OrgID, c.UserID, since)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	listed := func() bool {
		t.Helper()
		cases, err := s.ListCases(t.Context(), c.OrgID, c.UserID, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(cases, func(l store.Case) bool { return l.ID == c.ID })
	}
	if !listed() || count() != 1 {
		t.Fatalf("before the erasure: listed %v, counted %d", listed(), count())
	}
	beginErasure(t, s, c.ID)
	if listed() || count() != 1 {
		t.Errorf("being erased: listed %v, counted %d; want it counted, not listed", listed(), count())
	}
	if _, err := s.EraseCaseData(t.Context(), c.ID); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("its data deleted, the erasure not finished: counted %d, want 1", n)
	}
	if _, err := s.FinishErasure(t.Context(), c.ID, schemas.Erased{Cases: 1}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("erased: counted %d, want 1: an erased case still counts towards the day's cases", n)
	}
}

// testHoldsSurviveConcurrentUpdates lifts a hold, and sets it again, while the case's
// workflow writes its details: neither the lifting nor the writes are lost.
func testHoldsSurviveConcurrentUpdates(t *testing.T, s store.Store) {
	for round := range 5 {
		c := createCase(t, s)
		held := &store.Hold{By: "admin", Reason: "r", At: time.Now().UTC()}
		if err := s.SetHold(t.Context(), c.ID, "", held); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				if _, err := s.UpdateDetails(t.Context(), c.ID, 0, "", map[string]any{fmt.Sprintf("notes.n%d", i): "x"}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Go(func() {
			if err := s.SetHold(t.Context(), c.ID, "", nil); err != nil {
				t.Error(err)
			}
		})
		wg.Wait()
		got := getCase(t, s, c.ID)
		if got.Hold != nil || len(detail(t, got.Details, "notes").(map[string]any)) != 8 {
			t.Fatalf("round %d: hold %+v, notes %v; want the hold lifted and 8 notes", round, got.Hold, got.Details["notes"])
		}
	}
}

func testOthersHold(t *testing.T, s store.Store) {
	c := createCase(t, s)
	firm := &store.Hold{By: "firm-admin", Org: c.OrgID, Reason: "litigation", At: time.Now().UTC()}
	if err := s.SetHold(t.Context(), c.ID, c.OrgID, firm); err != nil {
		t.Fatalf("the firm's hold: %v", err)
	}
	if err := s.SetHold(t.Context(), c.ID, c.OrgID, firm); err != nil {
		t.Fatalf("the firm replacing its own hold: %v", err)
	}
	operator := &store.Hold{By: "ops", Reason: "an authority's request", At: time.Now().UTC()}
	if err := s.SetHold(t.Context(), c.ID, "", operator); err != nil {
		t.Fatalf("the operator's hold over the firm's: %v", err)
	}
	for _, h := range []*store.Hold{nil, firm} {
		if err := s.SetHold(t.Context(), c.ID, c.OrgID, h); !errors.Is(err, store.ErrOthersHold) {
			t.Errorf("the firm changing the operator's hold (%v) = %v, want ErrOthersHold", h, err)
		}
	}
	if got := getCase(t, s, c.ID); got.Hold == nil || got.Hold.By != "ops" {
		t.Fatalf("hold = %+v, want the operator's", got.Hold)
	}
	if err := s.SetHold(t.Context(), c.ID, "", nil); err != nil {
		t.Fatalf("the operator lifting it: %v", err)
	}
	if err := s.SetHold(t.Context(), c.ID, "other-org", firm); err != nil {
		t.Errorf("any organization in scope holding a case without a hold: %v", err)
	}
}
