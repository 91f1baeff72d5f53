package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// courtFileTests check store.CourtFiles.
var courtFileTests = []subtest{
	{"LinkIsIdempotent", testLinkCourtFileIdempotent},
	{"ListIsPerCaseOldestFirst", testListCourtFiles},
	{"UnlinkOnlyTheCasesOwn", testUnlinkCourtFile},
	{"HearingsRoundTrip", testCourtHearings},
	{"WatchPagesThroughEveryLink", testWatchedCourtFiles},
	{"ErasureDeletesTheLinks", testEraseCourtFiles},
}

// linkCourtFile links a file of a number to a case at a time.
func linkCourtFile(t *testing.T, s store.Store, caseID, number string, at time.Time) store.CourtFile {
	t.Helper()
	court := "TribunalulBUCURESTI"
	f, created, err := s.LinkCourtFile(t.Context(), store.CourtFile{ID: store.CourtFileID(caseID, court, number), CaseID: caseID,
		Number: number, Court: court, LinkedBy: "the-owner", LinkedAt: at})
	if err != nil || !created {
		t.Fatalf("LinkCourtFile = %v, created %v", err, created)
	}
	return f
}

func testLinkCourtFileIdempotent(t *testing.T, s store.Store) {
	c := createCase(t, s)
	at := time.Now().UTC().Truncate(time.Millisecond)
	f := linkCourtFile(t, s, c.ID, "1234/3/2024", at)
	if f.Number != "1234/3/2024" || f.Court != "TribunalulBUCURESTI" || f.CaseID != c.ID || !sameTime(f.LinkedAt, at) || len(f.Hearings) != 0 {
		t.Errorf("linked = %+v", f)
	}
	again, created, err := s.LinkCourtFile(t.Context(), store.CourtFile{ID: f.ID, CaseID: c.ID, Number: f.Number, Court: f.Court,
		LinkedBy: "someone-else", LinkedAt: at.Add(time.Hour)})
	if err != nil || created {
		t.Fatalf("LinkCourtFile again = %v, created %v; want the first link", err, created)
	}
	if again.LinkedBy != "the-owner" || !sameTime(again.LinkedAt, at) {
		t.Errorf("linking again changed the link: %+v", again)
	}
}

func testListCourtFiles(t *testing.T, s store.Store) {
	c, other := createCase(t, s), createCase(t, s)
	at := time.Now().UTC()
	second := linkCourtFile(t, s, c.ID, "2/3/2024", at.Add(time.Minute))
	first := linkCourtFile(t, s, c.ID, "1/3/2024", at)
	linkCourtFile(t, s, other.ID, "3/3/2024", at)
	got, err := s.ListCourtFiles(t.Context(), c.ID)
	if err != nil {
		t.Fatalf("ListCourtFiles = %v", err)
	}
	ids := make([]string, len(got))
	for i, f := range got {
		ids[i] = f.ID
	}
	if !slices.Equal(ids, []string{first.ID, second.ID}) {
		t.Errorf("ListCourtFiles = %v, want %v (oldest first, the case's own)", ids, []string{first.ID, second.ID})
	}
	none, err := s.ListCourtFiles(t.Context(), newID("case"))
	if err != nil || len(none) != 0 {
		t.Errorf("ListCourtFiles of a case without links = %v, %v", none, err)
	}
}

func testUnlinkCourtFile(t *testing.T, s store.Store) {
	c, other := createCase(t, s), createCase(t, s)
	f := linkCourtFile(t, s, c.ID, "1/3/2024", time.Now().UTC())
	if err := s.UnlinkCourtFile(t.Context(), other.ID, f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UnlinkCourtFile from another case = %v, want ErrNotFound", err)
	}
	if err := s.UnlinkCourtFile(t.Context(), c.ID, f.ID); err != nil {
		t.Fatalf("UnlinkCourtFile = %v", err)
	}
	if err := s.UnlinkCourtFile(t.Context(), c.ID, f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UnlinkCourtFile again = %v, want ErrNotFound", err)
	}
	if got, _ := s.ListCourtFiles(t.Context(), c.ID); len(got) != 0 {
		t.Errorf("ListCourtFiles after unlinking = %+v", got)
	}
	if err := s.RecordCourtHearings(t.Context(), c.ID, f.ID, nil, "Fond", time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RecordCourtHearings of an unlinked file = %v, want ErrNotFound", err)
	}
}

func testCourtHearings(t *testing.T, s store.Store) {
	c, other := createCase(t, s), createCase(t, s)
	f := linkCourtFile(t, s, c.ID, "1/3/2024", time.Now().UTC())
	day := time.Date(2025, 3, 5, 0, 0, 0, 0, time.FixedZone("EET", 2*3600))
	hs := make([]store.CourtHearing, store.MaxCourtHearings+5)
	for i := range hs {
		hs[i] = store.CourtHearing{Date: day.AddDate(0, 0, -7*i), Hour: "09:00", Panel: "C5"}
	}
	hs[0].Result, hs[0].Summary, hs[0].PronouncedAt, hs[0].Document = "Admite", "Admite cererea.\nDefinitivă.", day, "12/2025"
	at := time.Now().UTC().Truncate(time.Millisecond)
	if err := s.RecordCourtHearings(t.Context(), other.ID, f.ID, hs, "Fond", at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RecordCourtHearings for another case = %v, want ErrNotFound", err)
	}
	if err := s.RecordCourtHearings(t.Context(), c.ID, f.ID, hs, "Apel", at); err != nil {
		t.Fatalf("RecordCourtHearings = %v", err)
	}
	got, err := s.ListCourtFiles(t.Context(), c.ID)
	if err != nil || len(got) != 1 {
		t.Fatalf("ListCourtFiles = %v, %v", got, err)
	}
	g := got[0]
	if g.Stage != "Apel" || !sameTime(g.CheckedAt, at) || len(g.Hearings) != store.MaxCourtHearings {
		t.Fatalf("file = stage %q, checked %v, %d hearings; want Apel, %v, %d", g.Stage, g.CheckedAt, len(g.Hearings), at, store.MaxCourtHearings)
	}
	h := g.Hearings[0]
	if !h.Date.Equal(day) || h.Result != "Admite" || h.Summary != hs[0].Summary || !h.PronouncedAt.Equal(day) || h.Document != "12/2025" || h.Key() != hs[0].Key() {
		t.Errorf("first hearing = %+v, want %+v", h, hs[0])
	}
	if !g.Hearings[1].PronouncedAt.IsZero() || g.Hearings[1].Result != "" {
		t.Errorf("a hearing without result came back with %+v", g.Hearings[1])
	}
}

func testWatchedCourtFiles(t *testing.T, s store.Store) {
	c := createCase(t, s)
	want := map[string]bool{}
	for i := range 5 {
		want[linkCourtFile(t, s, c.ID, fmt.Sprintf("%d/3/2024", i+1), time.Now().UTC()).ID] = true
	}
	after, seen := "", map[string]bool{}
	for range 1000 {
		page, err := s.WatchedCourtFiles(t.Context(), after, 2)
		if err != nil {
			t.Fatalf("WatchedCourtFiles = %v", err)
		}
		if len(page) == 0 {
			break
		}
		if len(page) > 2 {
			t.Fatalf("a page of %d, asked for 2", len(page))
		}
		for _, f := range page {
			if f.ID <= after {
				t.Fatalf("WatchedCourtFiles after %q returned %q", after, f.ID)
			}
			seen[f.ID] = true
			after = f.ID
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("paging never found %s", id)
		}
	}
}

func testEraseCourtFiles(t *testing.T, s store.Store) {
	c, other := createCase(t, s), createCase(t, s)
	linkCourtFile(t, s, c.ID, "1/3/2024", time.Now().UTC())
	linkCourtFile(t, s, c.ID, "2/3/2024", time.Now().UTC())
	kept := linkCourtFile(t, s, other.ID, "1/3/2024", time.Now().UTC())
	beginErasure(t, s, c.ID)
	erased, err := s.EraseCaseData(t.Context(), c.ID)
	if err != nil {
		t.Fatalf("EraseCaseData = %v", err)
	}
	if erased.CourtFiles != 2 {
		t.Errorf("erased %d court files, want 2", erased.CourtFiles)
	}
	if got, _ := s.ListCourtFiles(t.Context(), c.ID); len(got) != 0 {
		t.Errorf("the erased case still links %+v", got)
	}
	if got, _ := s.ListCourtFiles(t.Context(), other.ID); len(got) != 1 || got[0].ID != kept.ID {
		t.Errorf("another case's links = %+v, want its one", got)
	}
	receipt, err := s.FinishErasure(t.Context(), c.ID, erased, time.Now().UTC())
	if err != nil || receipt.Erased.CourtFiles != 2 {
		t.Errorf("receipt = %+v, %v; want 2 court files counted", receipt.Erased, err)
	}
}
