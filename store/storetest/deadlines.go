package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/deadline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// deadlineTests check store.Deadlines.
var deadlineTests = []subtest{
	{"CreateIsIdempotentAndKeepsEveryField", testDeadlineCreate},
	{"GetIsScopedToItsCase", testDeadlineScopedToCase},
	{"ListIsSoonestFirst", testDeadlineListOrder},
	{"UserDeadlinesAreOwnedOrAnswered", testUserDeadlines},
	{"UpdateChecksTheRevision", testDeadlineUpdate},
	{"DeleteForgets", testDeadlineDelete},
	{"ErasureDeletesThem", testDeadlineErased},
}

// newDeadline is a deadline of caseID owned by owner, ending on day (YYYY-MM-DD).
func newDeadline(caseID, owner, day string) store.Deadline {
	due, _ := time.Parse(time.DateOnly, day)
	bucharest, _ := time.LoadLocation("Europe/Bucharest")
	return store.Deadline{ID: newID("dl"), CaseID: caseID, TenantID: "org-" + owner, Owner: owner,
		Title: "Apel împotriva sentinței", Source: schemas.DeadlineSource{Kind: schemas.SourceCourtOrder, Reference: "Sentința 12/2026", Date: "2026-03-02"},
		Due: day, Zone: "Europe/Bucharest", EndsAt: time.Date(due.Year(), due.Month(), due.Day()+1, 0, 0, 0, 0, bucharest),
		Responsible: owner, Reminders: slices.Clone(schemas.DefaultReminders), Status: schemas.DeadlineActive}
}

func createDeadline(t *testing.T, s store.Store, d store.Deadline) store.Deadline {
	t.Helper()
	got, err := s.CreateDeadline(t.Context(), d)
	if err != nil {
		t.Fatalf("CreateDeadline = %v", err)
	}
	return got
}

func testDeadlineCreate(t *testing.T, s store.Store) {
	d := newDeadline(newID("case"), newID("user"), "2026-03-17")
	d.ProposedBy = "assistant"
	req := deadline.Request{Jurisdiction: "ro", From: "2026-03-02", Amount: 15, Unit: "days"}
	answer, err := deadline.Compute(req)
	if err != nil {
		t.Fatal(err)
	}
	d.Computation = &store.DeadlineComputation{Request: req, Answer: answer}
	got := createDeadline(t, s, d)
	if got.Rev != 1 || !recent(got.CreatedAt) || !sameTime(got.UpdatedAt, got.CreatedAt) {
		t.Errorf("created rev %d at %v/%v, want rev 1 now", got.Rev, got.CreatedAt, got.UpdatedAt)
	}
	if got.Title != d.Title || got.Source != d.Source || got.Due != d.Due || got.Zone != d.Zone || !got.EndsAt.Equal(d.EndsAt) ||
		got.Responsible != d.Responsible || !slices.Equal(got.Reminders, d.Reminders) || got.Status != d.Status ||
		got.ProposedBy != "assistant" || got.TenantID != d.TenantID || got.Owner != d.Owner {
		t.Errorf("stored %+v, want %+v", got, d)
	}
	if got.Computation == nil || got.Computation.Answer.Due != answer.Due || got.Computation.Request.Amount != 15 ||
		len(got.Computation.Answer.Rules) != len(answer.Rules) || len(got.Computation.Answer.Rules) == 0 {
		t.Errorf("computation = %+v, want %+v", got.Computation, answer)
	}
	again := d
	again.Title = "another title"
	if second := createDeadline(t, s, again); second.Title != d.Title || second.Rev != 1 {
		t.Errorf("creating again = %q rev %d, want the first (%q, rev 1)", second.Title, second.Rev, d.Title)
	}
	manual := newDeadline(d.CaseID, d.Owner, "2026-04-01")
	if got := createDeadline(t, s, manual); got.Computation != nil {
		t.Errorf("a deadline set by hand has computation %+v", got.Computation)
	}
}

func testDeadlineScopedToCase(t *testing.T, s store.Store) {
	d := createDeadline(t, s, newDeadline(newID("case"), newID("user"), "2026-05-04"))
	if _, err := s.GetDeadline(t.Context(), newID("case"), d.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetDeadline from another case = %v, want ErrNotFound", err)
	}
	if _, err := s.GetDeadline(t.Context(), d.CaseID, newID("dl")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetDeadline of no deadline = %v, want ErrNotFound", err)
	}
	if err := s.DeleteDeadline(t.Context(), newID("case"), d.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeleteDeadline from another case = %v, want ErrNotFound", err)
	}
	moved := d
	moved.CaseID = newID("case")
	if _, err := s.UpdateDeadline(t.Context(), moved); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateDeadline from another case = %v, want ErrNotFound", err)
	}
	if got, err := s.GetDeadline(t.Context(), d.CaseID, d.ID); err != nil || got.Rev != 1 {
		t.Errorf("GetDeadline after the others' attempts = rev %d, %v; want rev 1", got.Rev, err)
	}
}

func testDeadlineListOrder(t *testing.T, s store.Store) {
	caseID, owner := newID("case"), newID("user")
	for _, day := range []string{"2026-09-15", "2026-03-02", "2026-06-30"} {
		createDeadline(t, s, newDeadline(caseID, owner, day))
	}
	createDeadline(t, s, newDeadline(newID("case"), owner, "2026-01-05"))
	got, err := s.ListDeadlines(t.Context(), caseID)
	if err != nil {
		t.Fatal(err)
	}
	if days := dueDays(got); !slices.Equal(days, []string{"2026-03-02", "2026-06-30", "2026-09-15"}) {
		t.Errorf("ListDeadlines = %v, want the case's three soonest first", days)
	}
	if none, err := s.ListDeadlines(t.Context(), newID("case")); err != nil || len(none) != 0 {
		t.Errorf("ListDeadlines of a case without = %v, %v", none, err)
	}
}

func dueDays(ds []store.Deadline) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Due
	}
	return out
}

func testUserDeadlines(t *testing.T, s store.Store) {
	me, colleague := newID("user"), newID("user")
	createDeadline(t, s, newDeadline(newID("case"), me, "2026-07-01"))
	answered := newDeadline(newID("case"), colleague, "2026-02-10")
	answered.Responsible = me
	createDeadline(t, s, answered)
	createDeadline(t, s, newDeadline(newID("case"), me, "2026-04-20"))
	createDeadline(t, s, newDeadline(newID("case"), colleague, "2026-01-01"))
	got, err := s.UserDeadlines(t.Context(), me, 10)
	if err != nil {
		t.Fatal(err)
	}
	if days := dueDays(got); !slices.Equal(days, []string{"2026-02-10", "2026-04-20", "2026-07-01"}) {
		t.Errorf("UserDeadlines = %v, want the three I own or answer for, soonest first", days)
	}
	if two, err := s.UserDeadlines(t.Context(), me, 2); err != nil || !slices.Equal(dueDays(two), []string{"2026-02-10", "2026-04-20"}) {
		t.Errorf("UserDeadlines(limit 2) = %v, %v", dueDays(two), err)
	}
}

func testDeadlineUpdate(t *testing.T, s store.Store) {
	d := createDeadline(t, s, newDeadline(newID("case"), newID("user"), "2026-05-04"))
	moved := newDeadline(d.CaseID, d.Owner, "2026-05-11")
	moved.ID, moved.Rev, moved.Title, moved.Reminders = d.ID, d.Rev, "moved", []string{"30s"}
	moved.Owner, moved.TenantID = "someone else", "another tenant"
	got, err := s.UpdateDeadline(t.Context(), moved)
	if err != nil {
		t.Fatalf("UpdateDeadline = %v", err)
	}
	if got.Rev != 2 || got.Due != "2026-05-11" || got.Title != "moved" || !slices.Equal(got.Reminders, []string{"30s"}) {
		t.Errorf("updated = rev %d due %s %q %v", got.Rev, got.Due, got.Title, got.Reminders)
	}
	if got.Owner != d.Owner || got.TenantID != d.TenantID || !sameTime(got.CreatedAt, d.CreatedAt) || got.UpdatedAt.Before(d.UpdatedAt) {
		t.Errorf("update changed what it keeps: %+v", got)
	}
	if _, err := s.UpdateDeadline(t.Context(), moved); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("UpdateDeadline at the old revision = %v, want ErrVersionConflict", err)
	}
	if read, err := s.GetDeadline(t.Context(), d.CaseID, d.ID); err != nil || read.Rev != 2 || read.Due != "2026-05-11" {
		t.Errorf("GetDeadline after update = %+v, %v", read, err)
	}
}

func testDeadlineDelete(t *testing.T, s store.Store) {
	d := createDeadline(t, s, newDeadline(newID("case"), newID("user"), "2026-05-04"))
	if err := s.DeleteDeadline(t.Context(), d.CaseID, d.ID); err != nil {
		t.Fatalf("DeleteDeadline = %v", err)
	}
	if _, err := s.GetDeadline(t.Context(), d.CaseID, d.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetDeadline after delete = %v, want ErrNotFound", err)
	}
	if err := s.DeleteDeadline(t.Context(), d.CaseID, d.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeleteDeadline again = %v, want ErrNotFound", err)
	}
}

func testDeadlineErased(t *testing.T, s store.Store) {
	c := createCase(t, s)
	owner := store.OwnerID(c.OrgID, c.UserID)
	for _, day := range []string{"2026-05-04", "2026-06-04"} {
		createDeadline(t, s, newDeadline(c.ID, owner, day))
	}
	kept := createDeadline(t, s, newDeadline(newID("case"), owner, "2026-07-04"))
	if _, err := s.BeginErasure(t.Context(), schemas.Erasure{CaseID: c.ID, RequestedBy: "t", Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	erased, err := s.EraseCaseData(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if erased.Deadlines != 2 {
		t.Errorf("EraseCaseData counted %d deadlines, want 2", erased.Deadlines)
	}
	if left, err := s.ListDeadlines(t.Context(), c.ID); err != nil || len(left) != 0 {
		t.Errorf("after erasure the case has deadlines %v, %v", dueDays(left), err)
	}
	if _, err := s.GetDeadline(t.Context(), kept.CaseID, kept.ID); err != nil {
		t.Errorf("another case's deadline after erasure: %v", err)
	}
}
