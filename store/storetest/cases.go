package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// caseTests check store.Cases.
var caseTests = []subtest{
	{"CreateStoresTheCase", testCreateStoresTheCase},
	{"CreateIsIdempotent", testCreateIsIdempotent},
	{"CreateConcurrentlyKeepsOne", testCreateConcurrentlyKeepsOne},
	{"GetMissingIsNotFound", testGetMissingCase},
	{"CaseOwner", testCaseOwner},
	{"SetPhase", testSetPhase},
	{"PutStatus/KeepsTheHighestSeq", testPutStatusKeepsTheHighestSeq},
	{"PutStatus/ConcurrentKeepsTheHighest", testPutStatusConcurrently},
	{"UpdateDetails/DotPaths", testUpdateDotPaths},
	{"UpdateDetails/ReplacesOrAppends", testUpdateReplacesOrAppends},
	{"UpdateDetails/VersionCountsUpdates", testUpdateVersionCountsUpdates},
	{"UpdateDetails/ExpectedVersion", testUpdateExpectedVersion},
	{"UpdateDetails/ConcurrentExpectedVersionOneWins", testUpdateConcurrentExpectedVersion},
	{"UpdateDetails/InvalidFields", testUpdateInvalidFields},
	{"UpdateDetails/MissingIsNotFound", testUpdateMissingCase},
	{"UpdateDetails/ConcurrentWritersKeepEachOthersChanges", testUpdateConcurrentWriters},
	{"UpdateDetails/AnOpAppliesOnce", testUpdateOpAppliesOnce},
	{"UpdateDetails/StampsLastUpdated", testUpdateStampsLastUpdated},
	{"CountCases", testCountCases},
	{"ListCases", testListCases},
	{"SetPayment/KeepsTheFirst", testSetPaymentKeepsTheFirst},
	{"SetPayment/ConcurrentKeepsOne", testSetPaymentConcurrently},
	{"SetPayment/MissingIsNotFound", testSetPaymentMissingCase},
}

const description = "The landlord keeps the deposit after the lease ended."

// newCase returns a new case with a fresh ID, not yet stored.
func newCase() store.Case {
	return store.Case{ID: newID("case"), UserID: newID("user"), OrgID: newID("org"), Description: description,
		Language: "ro", Phase: "tiering", Status: "open", Details: store.NewDetails(description)}
}

// createCase stores a new case and returns it as stored.
func createCase(t *testing.T, s store.Store) store.Case {
	t.Helper()
	c, err := s.CreateCase(t.Context(), newCase())
	if err != nil {
		t.Fatalf("CreateCase = %v", err)
	}
	return c
}

// getCase reads a case that must exist.
func getCase(t *testing.T, s store.Store, id string) store.Case {
	t.Helper()
	c, err := s.GetCase(t.Context(), id)
	if err != nil {
		t.Fatalf("GetCase(%s) = %v", id, err)
	}
	return c
}

// caseFields is what identifies a case's content, for comparing two reads of one case.
func caseFields(c store.Case) string {
	return fmt.Sprintf("id=%q user=%q org=%q description=%q language=%q phase=%q status=%q version=%d",
		c.ID, c.UserID, c.OrgID, c.Description, c.Language, c.Phase, c.Status, c.Version)
}

// detail returns the value at a dot path of case_details, failing t when the path is
// missing or passes through something other than a map[string]any.
func detail(t *testing.T, details map[string]any, path string) any {
	t.Helper()
	var v any = details
	for _, seg := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("case_details.%s: a step is %T, want map[string]any", path, v)
		}
		if v, ok = m[seg]; !ok {
			t.Fatalf("case_details has no %s: %v", path, details)
		}
	}
	return v
}

// detailList returns the list at a dot path of case_details.
func detailList(t *testing.T, details map[string]any, path string) []any {
	t.Helper()
	v := detail(t, details, path)
	l, ok := v.([]any)
	if !ok {
		t.Fatalf("case_details.%s is %T (%v), want []any", path, v, v)
	}
	return l
}

func testCreateStoresTheCase(t *testing.T, s store.Store) {
	in := newCase()
	got, err := s.CreateCase(t.Context(), in)
	if err != nil {
		t.Fatalf("CreateCase = %v", err)
	}
	if caseFields(got) != caseFields(in) {
		t.Errorf("CreateCase returned %s\nwant %s", caseFields(got), caseFields(in))
	}
	if !recent(got.CreatedAt) {
		t.Errorf("created_at = %v, want about now", got.CreatedAt)
	}
	if got.Payment != nil {
		t.Errorf("payment of a new case = %+v, want none", got.Payment)
	}
	stored := getCase(t, s, in.ID)
	if caseFields(stored) != caseFields(in) {
		t.Errorf("GetCase = %s\nwant %s", caseFields(stored), caseFields(in))
	}
	if !sameTime(stored.CreatedAt, got.CreatedAt) {
		t.Errorf("created_at read back = %v, CreateCase returned %v", stored.CreatedAt, got.CreatedAt)
	}
	for _, c := range []store.Case{got, stored} {
		if v := detail(t, c.Details, "summary.initial"); v != description {
			t.Errorf("summary.initial = %v, want %q", v, description)
		}
		if v := detail(t, c.Details, "summary.current"); v != description {
			t.Errorf("summary.current = %v, want %q", v, description)
		}
		if facts := detailList(t, c.Details, "facts"); len(facts) != 0 {
			t.Errorf("facts of a new case = %v, want none", facts)
		}
	}
}

func testCreateIsIdempotent(t *testing.T, s store.Store) {
	in := newCase()
	first, err := s.CreateCase(t.Context(), in)
	if err != nil {
		t.Fatalf("first CreateCase = %v", err)
	}
	retry := in
	retry.UserID, retry.Description, retry.Phase = newID("user"), "Another description.", "active"
	retry.Details = store.NewDetails(retry.Description)
	again, err := s.CreateCase(t.Context(), retry)
	if err != nil {
		t.Fatalf("second CreateCase = %v", err)
	}
	if caseFields(again) != caseFields(first) {
		t.Errorf("second CreateCase returned %s\nwant the first case %s", caseFields(again), caseFields(first))
	}
	if !sameTime(again.CreatedAt, first.CreatedAt) {
		t.Errorf("second CreateCase's created_at = %v, want the first's %v", again.CreatedAt, first.CreatedAt)
	}
	stored := getCase(t, s, in.ID)
	if caseFields(stored) != caseFields(first) {
		t.Errorf("after two creates GetCase = %s\nwant the first case %s", caseFields(stored), caseFields(first))
	}
	if v := detail(t, stored.Details, "summary.current"); v != description {
		t.Errorf("summary.current = %v, want the first case's %q", v, description)
	}
}

func testCreateConcurrentlyKeepsOne(t *testing.T, s store.Store) {
	const creators = 6
	id := newID("case")
	got := make([]store.Case, creators)
	errs := make([]error, creators)
	var wg sync.WaitGroup
	for i := range creators {
		wg.Go(func() {
			c := newCase()
			c.ID, c.Description = id, fmt.Sprintf("creator %d", i)
			got[i], errs[i] = s.CreateCase(t.Context(), c)
		})
	}
	wg.Wait()
	stored := getCase(t, s, id)
	for i := range creators {
		if errs[i] != nil {
			t.Errorf("creator %d: CreateCase = %v", i, errs[i])
		} else if got[i].Description != stored.Description {
			t.Errorf("creator %d got the case described %q, the store keeps %q", i, got[i].Description, stored.Description)
		}
	}
}

func testGetMissingCase(t *testing.T, s store.Store) {
	_, err := s.GetCase(t.Context(), newID("missing"))
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetCase of a missing case = %v, want ErrNotFound", err)
	}
}

func testCaseOwner(t *testing.T, s store.Store) {
	c := createCase(t, s)
	org, subject, err := s.CaseOwner(t.Context(), c.ID)
	if err != nil || org != c.OrgID || subject != c.UserID {
		t.Errorf("CaseOwner = %q, %q, %v; want %q, %q", org, subject, err, c.OrgID, c.UserID)
	}
	if _, _, err := s.CaseOwner(t.Context(), newID("missing")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("CaseOwner of a missing case = %v, want ErrNotFound", err)
	}
}

func testSetPhase(t *testing.T, s store.Store) {
	c := createCase(t, s)
	if err := s.SetPhase(t.Context(), c.ID, "active", "paused_support"); err != nil {
		t.Fatalf("SetPhase = %v", err)
	}
	got := getCase(t, s, c.ID)
	if got.Phase != "active" || got.Status != "paused_support" {
		t.Errorf("phase, status = %q, %q; want active, paused_support", got.Phase, got.Status)
	}
	if got.Version != c.Version {
		t.Errorf("version = %d after SetPhase, want %d: it counts updates to the details only", got.Version, c.Version)
	}
	if err := s.SetPhase(t.Context(), newID("missing"), "active", "open"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetPhase of a missing case = %v, want ErrNotFound", err)
	}
}

func testPutStatusKeepsTheHighestSeq(t *testing.T, s store.Store) {
	c := createCase(t, s)
	if got := getCase(t, s, c.ID); got.State != nil {
		t.Fatalf("a new case's status = %+v, want none", got.State)
	}
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	second := schemas.CaseStatus{Phase: "active", Status: "waiting_user", Turns: 2, Busy: true, Tier: 2, Justification: "a lease",
		Escalation: &schemas.EscalationStatus{N: 1, Tool: "kb_search", Error: "503", Rung: "ask_user", Question: "Try again?"},
		Tickets:    []string{"case:x:ticket:1"}, ProgressAt: at, Seq: 2, UpdatedAt: at}
	if err := s.PutStatus(t.Context(), c.ID, second); err != nil {
		t.Fatalf("PutStatus = %v", err)
	}
	got := getCase(t, s, c.ID)
	if got.State == nil || !reflect.DeepEqual(*got.State, second) || got.Phase != "active" || got.Status != "waiting_user" {
		t.Fatalf("after PutStatus: phase %q, status %q, state %+v; want %+v", got.Phase, got.Status, got.State, second)
	}
	for _, stale := range []int64{1, 2} {
		old := schemas.CaseStatus{Phase: "quota", Status: "open", Seq: stale, UpdatedAt: at.Add(time.Hour)}
		if err := s.PutStatus(t.Context(), c.ID, old); err != nil {
			t.Fatalf("PutStatus of seq %d = %v, want it ignored", stale, err)
		}
		if got := getCase(t, s, c.ID); got.State == nil || got.State.Seq != 2 || got.Phase != "active" || got.Status != "waiting_user" {
			t.Errorf("after a write of seq %d: phase %q, status %q, state %+v; want seq 2 kept", stale, got.Phase, got.Status, got.State)
		}
	}
	third := schemas.CaseStatus{Phase: "active", Status: "closed", Turns: 2, Seq: 3, UpdatedAt: at.Add(time.Minute)}
	if err := s.PutStatus(t.Context(), c.ID, third); err != nil {
		t.Fatal(err)
	}
	if got := getCase(t, s, c.ID); got.State == nil || got.State.Seq != 3 || got.Status != "closed" || got.State.Escalation != nil {
		t.Errorf("after seq 3: status %q, state %+v", got.Status, got.State)
	}
	if err := s.PutStatus(t.Context(), newID("missing"), third); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PutStatus of a missing case = %v, want ErrNotFound", err)
	}
}

// testPutStatusConcurrently: writers racing with Seqs 1..n leave the highest.
func testPutStatusConcurrently(t *testing.T, s store.Store) {
	c := createCase(t, s)
	const writers = 6
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Go(func() {
			errs[i] = s.PutStatus(t.Context(), c.ID, schemas.CaseStatus{Phase: "active", Status: fmt.Sprint("s", i+1), Seq: int64(i + 1)})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if got := getCase(t, s, c.ID); got.State == nil || got.State.Seq != writers || got.Status != fmt.Sprint("s", writers) {
		t.Errorf("after racing writers: status %q, state %+v; want seq %d", got.Status, got.State, writers)
	}
}

// update applies updates that must succeed and returns the new version.
func update(t *testing.T, s store.Store, id string, expected int64, updates map[string]any) int64 {
	t.Helper()
	v, err := s.UpdateDetails(t.Context(), id, expected, "", updates)
	if err != nil {
		t.Fatalf("UpdateDetails(%v) = %v", updates, err)
	}
	return v
}

func testUpdateDotPaths(t *testing.T, s store.Store) {
	c := createCase(t, s)
	update(t, s, c.ID, 0, map[string]any{
		"summary.current":                "The deposit is 2,000 lei.",
		"legal_research.legislation":     []any{"Civil Code art. 1,777"},
		"parties_involved.claimant.role": "tenant",
	})
	got := getCase(t, s, c.ID).Details
	if v := detail(t, got, "summary.current"); v != "The deposit is 2,000 lei." {
		t.Errorf("summary.current = %v", v)
	}
	if v := detail(t, got, "summary.initial"); v != description {
		t.Errorf("summary.initial = %v, want %q: setting summary.current leaves its siblings alone", v, description)
	}
	if v := detailList(t, got, "legal_research.legislation"); !reflect.DeepEqual(v, []any{"Civil Code art. 1,777"}) {
		t.Errorf("legal_research.legislation = %v", v)
	}
	if v := detail(t, got, "parties_involved.claimant.role"); v != "tenant" {
		t.Errorf("parties_involved.claimant.role = %v, want the objects on the way created", v)
	}

	// A path that names an object replaces it whole.
	update(t, s, c.ID, 0, map[string]any{"summary": map[string]any{"current": "Replaced."}})
	summary, ok := detail(t, getCase(t, s, c.ID).Details, "summary").(map[string]any)
	if !ok || !reflect.DeepEqual(summary, map[string]any{"current": "Replaced."}) {
		t.Errorf("summary = %#v, want it replaced by {current: Replaced.}", summary)
	}
}

func testUpdateReplacesOrAppends(t *testing.T, s store.Store) {
	c := createCase(t, s)
	entry := func(path string, n int) any {
		return map[string]any{"text": fmt.Sprintf("%s entry %d", path, n), "source": "client"}
	}
	first := map[string]any{"objectives": []any{"get the deposit back"}}
	second := map[string]any{"objectives": []any{"get interest too"}}
	for _, path := range store.AppendFields {
		first[path] = []any{entry(path, 1)}
		second[path] = []any{entry(path, 2), entry(path, 3)}
	}
	update(t, s, c.ID, 0, first)
	update(t, s, c.ID, 0, second)
	got := getCase(t, s, c.ID).Details
	for _, path := range store.AppendFields {
		want := []any{entry(path, 1), entry(path, 2), entry(path, 3)}
		if l := detailList(t, got, path); !reflect.DeepEqual(l, want) {
			t.Errorf("%s = %v\nwant %v: a list written to a log is appended", path, l, want)
		}
	}
	if l := detailList(t, got, "objectives"); !reflect.DeepEqual(l, []any{"get interest too"}) {
		t.Errorf("objectives = %v, want [get interest too]: a list written to a field that is not a log replaces it", l)
	}
}

func testUpdateVersionCountsUpdates(t *testing.T, s store.Store) {
	c := createCase(t, s)
	if c.Version != 0 {
		t.Errorf("version of a new case = %d, want 0", c.Version)
	}
	for want := int64(1); want <= 3; want++ {
		v := update(t, s, c.ID, 0, map[string]any{"summary.current": fmt.Sprintf("update %d", want),
			"facts": []any{fmt.Sprintf("fact %d", want)}})
		if v != want {
			t.Errorf("update %d returned version %d", want, v)
		}
	}
	if got := getCase(t, s, c.ID).Version; got != 3 {
		t.Errorf("version after three updates = %d, want 3", got)
	}
}

func testUpdateExpectedVersion(t *testing.T, s store.Store) {
	c := createCase(t, s)
	update(t, s, c.ID, 0, map[string]any{"summary.current": "one"})
	// Two writers read version 1: the first to write wins, the second is told.
	if v := update(t, s, c.ID, 1, map[string]any{"summary.current": "two"}); v != 2 {
		t.Errorf("update at the current version 1 returned version %d, want 2", v)
	}
	for _, expected := range []int64{1, 7} {
		_, err := s.UpdateDetails(t.Context(), c.ID, expected, "", map[string]any{"summary.current": "stale", "facts": []any{"stale"}})
		if !errors.Is(err, store.ErrVersionConflict) {
			t.Errorf("update expecting version %d at version 2 = %v, want ErrVersionConflict", expected, err)
		}
	}
	got := getCase(t, s, c.ID)
	if v := detail(t, got.Details, "summary.current"); v != "two" || got.Version != 2 {
		t.Errorf("summary.current = %v at version %d, want two at 2: a conflicting update changes nothing", v, got.Version)
	}
	if facts := detailList(t, got.Details, "facts"); len(facts) != 0 {
		t.Errorf("facts = %v, want none: a conflicting update appends nothing", facts)
	}
	if v := update(t, s, c.ID, 2, map[string]any{"summary.current": "three"}); v != 3 {
		t.Errorf("update at the current version 2 returned version %d, want 3", v)
	}
}

func testUpdateConcurrentExpectedVersion(t *testing.T, s store.Store) {
	c := createCase(t, s)
	update(t, s, c.ID, 0, map[string]any{"summary.current": "read by every writer"})
	const writers = 6
	versions := make([]int64, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			versions[i], errs[i] = s.UpdateDetails(t.Context(), c.ID, 1, "", map[string]any{
				"summary.current": fmt.Sprintf("writer %d", i), "facts": []any{fmt.Sprintf("writer %d", i)}})
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("writers %d and %d both updated version 1", winner, i)
		case err == nil:
			winner = i
			if versions[i] != 2 {
				t.Errorf("the winning writer got version %d, want 2", versions[i])
			}
		case !errors.Is(err, store.ErrVersionConflict):
			t.Errorf("writer %d: UpdateDetails = %v, want nil or ErrVersionConflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no writer updated version 1")
	}
	got := getCase(t, s, c.ID)
	want := fmt.Sprintf("writer %d", winner)
	if v := detail(t, got.Details, "summary.current"); v != want || got.Version != 2 {
		t.Errorf("summary.current = %v at version %d, want %q at 2", v, got.Version, want)
	}
	if facts := detailList(t, got.Details, "facts"); !reflect.DeepEqual(facts, []any{want}) {
		t.Errorf("facts = %v, want only the winner's [%s]", facts, want)
	}
}

func testUpdateInvalidFields(t *testing.T, s store.Store) {
	c := createCase(t, s)
	for _, tc := range []struct {
		name    string
		updates map[string]any
	}{
		{"empty", map[string]any{}},
		{"operator", map[string]any{"$where": "1"}},
		{"empty segment", map[string]any{"summary..current": "x"}},
		{"not an identifier", map[string]any{"sum mary": "x"}},
		{"too deep", map[string]any{"a.b.c.d.e.f.g.h.i": "x"}},
		{"overlapping paths", map[string]any{"summary": map[string]any{}, "summary.current": "x"}},
		{"log given a non-list", map[string]any{"facts": "a fact"}},
		{"through a string", map[string]any{"summary.current.text": "x"}},
		{"through a string beside a valid field", map[string]any{"summary.current.text": "x", "objectives": []any{"x"}}},
	} {
		_, err := s.UpdateDetails(t.Context(), c.ID, 0, "", tc.updates)
		if !errors.Is(err, store.ErrInvalidField) {
			t.Errorf("%s: UpdateDetails(%v) = %v, want ErrInvalidField", tc.name, tc.updates, err)
		}
	}
	got := getCase(t, s, c.ID)
	if got.Version != 0 {
		t.Errorf("version = %d after invalid updates only, want 0", got.Version)
	}
	if v := detail(t, got.Details, "summary.current"); v != description {
		t.Errorf("summary.current = %v after invalid updates, want %q", v, description)
	}
	if l := detailList(t, got.Details, "objectives"); len(l) != 0 {
		t.Errorf("objectives = %v, want none: an update with an invalid field changes nothing", l)
	}
}

func testUpdateMissingCase(t *testing.T, s store.Store) {
	for _, expected := range []int64{0, 3} {
		_, err := s.UpdateDetails(t.Context(), newID("missing"), expected, "", map[string]any{"summary.current": "x"})
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UpdateDetails of a missing case expecting version %d = %v, want ErrNotFound", expected, err)
		}
	}
}

func testUpdateConcurrentWriters(t *testing.T, s store.Store) {
	c := createCase(t, s)
	const writers = 8
	versions := make([]int64, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			versions[i], errs[i] = s.UpdateDetails(t.Context(), c.ID, 0, "", map[string]any{
				fmt.Sprintf("by_writer.w%d", i): fmt.Sprintf("set by %d", i),
				"facts":                         []any{fmt.Sprintf("fact %d", i)},
				"internal_notes":                []any{fmt.Sprintf("note %d.a", i), fmt.Sprintf("note %d.b", i)},
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: UpdateDetails = %v", i, err)
		}
	}
	slices.Sort(versions)
	for i, v := range versions {
		if v != int64(i+1) {
			t.Errorf("writers got versions %v, want 1 to %d, one each", versions, writers)
			break
		}
	}
	got := getCase(t, s, c.ID)
	if got.Version != writers {
		t.Errorf("version = %d, want %d", got.Version, writers)
	}
	for i := range writers {
		path := fmt.Sprintf("by_writer.w%d", i)
		if v := detail(t, got.Details, path); v != fmt.Sprintf("set by %d", i) {
			t.Errorf("%s = %v", path, v)
		}
	}
	facts := detailList(t, got.Details, "facts")
	notes := detailList(t, got.Details, "internal_notes")
	if len(facts) != writers || len(notes) != 2*writers {
		t.Fatalf("%d facts and %d notes, want %d and %d: a writer's entries were lost\nfacts %v\nnotes %v",
			len(facts), len(notes), writers, 2*writers, facts, notes)
	}
	for i := range writers {
		if n := slices.Index(facts, any(fmt.Sprintf("fact %d", i))); n < 0 {
			t.Errorf("fact %d is missing: %v", i, facts)
		}
		// One update appends its entries together.
		n := slices.Index(notes, any(fmt.Sprintf("note %d.a", i)))
		if n < 0 || n+1 == len(notes) || notes[n+1] != fmt.Sprintf("note %d.b", i) {
			t.Errorf("notes %d.a and %d.b are not one after the other: %v", i, i, notes)
		}
	}
}

func testSetPaymentKeepsTheFirst(t *testing.T, s store.Store) {
	c := createCase(t, s)
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	want := store.Payment{ID: newID("evt"), Reference: newID("PAY"), By: c.UserID, At: at}
	samePayment := func(got store.Payment) bool {
		return got.ID == want.ID && got.Reference == want.Reference && got.By == want.By && sameTime(got.At, want.At)
	}
	first, err := s.SetPayment(t.Context(), c.ID, want)
	if err != nil || !samePayment(first) {
		t.Fatalf("first SetPayment = %+v, %v; want %+v", first, err, want)
	}
	again, err := s.SetPayment(t.Context(), c.ID, store.Payment{ID: newID("evt"), Reference: newID("PAY"), By: "someone else", At: at.Add(time.Hour)})
	if err != nil || !samePayment(again) {
		t.Errorf("second SetPayment = %+v, %v; want the first %+v kept", again, err, want)
	}
	got := getCase(t, s, c.ID).Payment
	if got == nil || !samePayment(*got) {
		t.Errorf("case payment = %+v, want %+v", got, want)
	}
}

func testSetPaymentConcurrently(t *testing.T, s store.Store) {
	c := createCase(t, s)
	const payers = 6
	got := make([]store.Payment, payers)
	errs := make([]error, payers)
	var wg sync.WaitGroup
	for i := range payers {
		wg.Go(func() {
			got[i], errs[i] = s.SetPayment(t.Context(), c.ID, store.Payment{Reference: fmt.Sprintf("PAY-%d", i), By: c.UserID, At: time.Now()})
		})
	}
	wg.Wait()
	stored := getCase(t, s, c.ID).Payment
	if stored == nil {
		t.Fatal("no payment recorded")
	}
	for i := range payers {
		if errs[i] != nil || got[i].Reference != stored.Reference {
			t.Errorf("payer %d: SetPayment = %+v, %v; want the recorded %s", i, got[i], errs[i], stored.Reference)
		}
	}
}

func testSetPaymentMissingCase(t *testing.T, s store.Store) {
	_, err := s.SetPayment(t.Context(), newID("missing"), store.Payment{Reference: newID("PAY"), By: "alice", At: time.Now()})
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetPayment of a missing case = %v, want ErrNotFound", err)
	}
}

// testUpdateOpAppliesOnce retries an update as an activity whose answer was lost does:
// the same op again stores its log entry once and answers the current version, even
// when other updates came between; another op applies.
func testUpdateOpAppliesOnce(t *testing.T, s store.Store) {
	c := createCase(t, s)
	entry := map[string]any{"facts": []any{map[string]any{"fact": "the lease ended"}}, "summary.current": "once"}
	first, err := s.UpdateDetails(t.Context(), c.ID, 0, "op-1", entry)
	if err != nil || first != 1 {
		t.Fatalf("first UpdateDetails = %d, %v; want version 1", first, err)
	}
	update(t, s, c.ID, 0, map[string]any{"summary.current": "later"})
	for range 2 {
		if v, err := s.UpdateDetails(t.Context(), c.ID, 1, "op-1", entry); err != nil || v != 2 {
			t.Fatalf("the same op again = %d, %v; want the current version 2 and no error", v, err)
		}
	}
	got := getCase(t, s, c.ID)
	if facts, _ := got.Details["facts"].([]any); len(facts) != 1 || got.Version != 2 {
		t.Errorf("after retries of one op: version %d, facts %v; want version 2 and one fact", got.Version, got.Details["facts"])
	}
	if summary, _ := got.Details["summary"].(map[string]any); summary["current"] != "later" {
		t.Errorf("the retried op overwrote a later update: summary %v", summary)
	}
	if v, err := s.UpdateDetails(t.Context(), c.ID, 0, "op-2", entry); err != nil || v != 3 {
		t.Errorf("another op = %d, %v; want version 3", v, err)
	}
}

// testCountCases counts a subject's and an organization's cases since a time: other
// subjects, other organizations and older cases are not counted.
func testCountCases(t *testing.T, s store.Store) {
	org, other := newID("org"), newID("org")
	ana, bo := newID("user"), newID("user")
	since := time.Now().Add(-time.Minute)
	for _, owner := range []struct{ org, user string }{{org, ana}, {org, ana}, {org, bo}, {other, ana}} {
		c := newCase()
		c.OrgID, c.UserID = owner.org, owner.user
		if _, err := s.CreateCase(t.Context(), c); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		org, subject string
		since        time.Time
		want         int
	}{
		{org, ana, since, 2}, {org, bo, since, 1}, {other, ana, since, 1}, {org, "", since, 3},
		{org, ana, time.Now().Add(time.Minute), 0}, {newID("org"), "", since, 0},
	} {
		if n, err := s.CountCases(t.Context(), c.org, c.subject, c.since); err != nil || n != c.want {
			t.Errorf("CountCases(%s, %q, %v) = %d, %v; want %d", c.org, c.subject, c.since, n, err, c.want)
		}
	}
}

// testListCases lists an owner's cases newest first, in pages that follow each other
// without a gap or a repeat, without their details; another subject's, another
// organization's, and a user's of no organization are apart; a page after a case that
// is not the owner's is ErrNotFound.
func testListCases(t *testing.T, s store.Store) {
	org, ana, bo := newID("org"), newID("user"), newID("user")
	var mine []store.Case
	for _, owner := range []struct{ org, user string }{{org, ana}, {org, bo}, {org, ana}, {"", ana}, {org, ana}, {org, ana}} {
		c := newCase()
		c.OrgID, c.UserID = owner.org, owner.user
		stored, err := s.CreateCase(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		if owner.org == org && owner.user == ana {
			mine = append(mine, stored)
		}
	}
	// Newest first; cases created in the same instant by their IDs, descending.
	slices.SortFunc(mine, func(a, b store.Case) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	var want, got []string
	for _, c := range mine {
		want = append(want, c.ID)
	}
	after := ""
	for page := 0; page < 10; page++ {
		cases, err := s.ListCases(t.Context(), org, ana, after, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.UserID != ana || c.OrgID != org || c.Details != nil || c.Phase != "tiering" || c.CreatedAt.IsZero() {
				t.Errorf("listed %+v", c)
			}
			got = append(got, c.ID)
		}
		if len(cases) < 3 {
			break
		}
		after = cases[len(cases)-1].ID
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("listed\n%v\nwant, newest first,\n%v", got, want)
	}
	if none, err := s.ListCases(t.Context(), "", ana, "", 10); err != nil || len(none) != 1 || none[0].OrgID != "" {
		t.Errorf("the cases of %s without an organization: %+v, %v; want the one", ana, none, err)
	}
	other := createCase(t, s)
	if _, err := s.ListCases(t.Context(), org, ana, other.ID, 3); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a page after another owner's case: %v, want ErrNotFound", err)
	}
}

// lastUpdated returns case_details.last_updated, failing t unless it is a time.
func lastUpdated(t *testing.T, c store.Case) time.Time {
	t.Helper()
	v, ok := detail(t, c.Details, schemas.LastUpdatedField).(time.Time)
	if !ok {
		t.Fatalf("case_details.%s = %#v, want a time", schemas.LastUpdatedField, c.Details[schemas.LastUpdatedField])
	}
	return v
}

func testUpdateStampsLastUpdated(t *testing.T, s store.Store) {
	c := createCase(t, s)
	created := lastUpdated(t, getCase(t, s, c.ID))
	if !recent(created) || !sameTime(created, c.CreatedAt) {
		t.Errorf("last_updated of a new case = %v, want its creation time %v", created, c.CreatedAt)
	}
	previous := created
	for i, updates := range []map[string]any{
		{"summary.current": "The deposit is 2,000 lei."},
		{"facts": []any{"The lease ended in May."}},
		{"draft_status.Notificare_r1": map[string]any{"revision": 1}},
	} {
		update(t, s, c.ID, 0, updates)
		got := getCase(t, s, c.ID)
		at := lastUpdated(t, got)
		if !recent(at) || !sameTime(at, got.UpdatedAt) || at.Before(previous) {
			t.Errorf("write %d: last_updated = %v, want the write's time (updated_at %v, not before %v)", i, at, got.UpdatedAt, previous)
		}
		previous = at
	}
	// The store sets it; a caller may not, whatever it sends.
	for _, path := range []string{schemas.LastUpdatedField, schemas.LastUpdatedField + ".at"} {
		forged := map[string]any{path: "1999-01-01T00:00:00Z", "summary.current": "forged"}
		if _, err := s.UpdateDetails(t.Context(), c.ID, 0, "", forged); !errors.Is(err, store.ErrInvalidField) {
			t.Errorf("UpdateDetails writing %s = %v, want ErrInvalidField", path, err)
		}
	}
	if got := getCase(t, s, c.ID); !lastUpdated(t, got).Equal(previous) || got.Version != 3 {
		t.Errorf("after refused writes: last_updated %v at version %d, want %v at 3", lastUpdated(t, got), got.Version, previous)
	}
}
