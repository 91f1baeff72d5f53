package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/store"
)

// partyTests check store.Parties.
var partyTests = []subtest{
	{"AddNumbersInOrder", testAddPartyNumbersInOrder},
	{"OtherCasesAreNotListed", testPartiesOfOtherCases},
	{"ConcurrentAddsGetDistinctIDs", testConcurrentAddParty},
}

// addParty attaches a party that must be attached and returns it.
func addParty(t *testing.T, s store.Store, p store.Party) store.Party {
	t.Helper()
	got, err := s.AddParty(t.Context(), p)
	if err != nil {
		t.Fatalf("AddParty = %v", err)
	}
	return got
}

// listParties lists a case's parties, failing t on an error.
func listParties(t *testing.T, s store.Store, caseID string) []store.Party {
	t.Helper()
	got, err := s.ListParties(t.Context(), caseID)
	if err != nil {
		t.Fatalf("ListParties = %v", err)
	}
	return got
}

// sameParty reports whether a party read back is p, numbered id.
func sameParty(got, p store.Party, id string) bool {
	return got.ID == id && got.CaseID == p.CaseID && got.FirstName == p.FirstName && got.LastName == p.LastName &&
		got.CompanyName == p.CompanyName && slices.Equal(got.Aliases, p.Aliases) && got.CNP == p.CNP &&
		got.CUI == p.CUI && got.Address == p.Address && got.Email == p.Email
}

func partyIDs(ps []store.Party) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

func testAddPartyNumbersInOrder(t *testing.T, s store.Store) {
	caseID := newID("case")
	added := []store.Party{
		// The ID a caller passes is not the one it gets: the store numbers parties.
		{ID: "party7", CaseID: caseID, FirstName: "Ion", LastName: "Popescu", CNP: "1800101123456",
			Address: "Str. Lalelelor 1, București", Email: "ion@example.com"},
		{CaseID: caseID, CompanyName: "Acme SRL", CUI: "RO123456", Aliases: []string{"the company", "Acme"}},
	}
	// Past party9, so that party10 must follow party9, not party1.
	for i := 2; i < 12; i++ {
		added = append(added, store.Party{CaseID: caseID, FirstName: fmt.Sprintf("Witness %d", i)})
	}
	for i, p := range added {
		want := fmt.Sprintf("party%d", i)
		if got := addParty(t, s, p); !sameParty(got, p, want) {
			t.Errorf("AddParty #%d = %+v, want %+v as %s", i, got, p, want)
		}
	}
	got := listParties(t, s, caseID)
	if len(got) != len(added) {
		t.Fatalf("ListParties = %v, want %d parties", partyIDs(got), len(added))
	}
	for i, p := range added {
		if want := fmt.Sprintf("party%d", i); !sameParty(got[i], p, want) {
			t.Errorf("listed party %d = %+v, want %+v as %s", i, got[i], p, want)
		}
	}
}

func testPartiesOfOtherCases(t *testing.T, s store.Store) {
	caseID, other := newID("case"), newID("case")
	ion := store.Party{CaseID: caseID, FirstName: "Ion"}
	ana := store.Party{CaseID: other, FirstName: "Ana"}
	maria := store.Party{CaseID: caseID, FirstName: "Maria"}
	addParty(t, s, ion)
	if got := addParty(t, s, ana); !sameParty(got, ana, "party0") {
		t.Errorf("first party of another case = %+v, want party0", got)
	}
	addParty(t, s, maria)
	if got := listParties(t, s, caseID); len(got) != 2 || !sameParty(got[0], ion, "party0") || !sameParty(got[1], maria, "party1") {
		t.Errorf("parties = %+v, want Ion as party0 and Maria as party1", got)
	}
	if got := listParties(t, s, other); len(got) != 1 || !sameParty(got[0], ana, "party0") {
		t.Errorf("the other case's parties = %+v, want Ana as party0", got)
	}
	if got := listParties(t, s, newID("case")); len(got) != 0 {
		t.Errorf("parties of a case without any = %+v", got)
	}
}

func testConcurrentAddParty(t *testing.T, s store.Store) {
	caseID := newID("case")
	const adders = 8
	got := make([]store.Party, adders)
	errs := make([]error, adders)
	var wg sync.WaitGroup
	for i := range adders {
		wg.Go(func() {
			got[i], errs[i] = s.AddParty(t.Context(), store.Party{CaseID: caseID, FirstName: fmt.Sprintf("Adder %d", i)})
		})
	}
	wg.Wait()
	nameOf := map[string]string{}
	for i := range adders {
		if errs[i] != nil {
			t.Fatalf("adder %d: AddParty = %v", i, errs[i])
		}
		if prev, ok := nameOf[got[i].ID]; ok {
			t.Errorf("%s and %s both got %s", prev, got[i].FirstName, got[i].ID)
		}
		nameOf[got[i].ID] = got[i].FirstName
	}
	listed := listParties(t, s, caseID)
	var want []string
	for i := range adders {
		want = append(want, fmt.Sprintf("party%d", i))
	}
	if !slices.Equal(partyIDs(listed), want) {
		t.Fatalf("ListParties = %v, want %v", partyIDs(listed), want)
	}
	for _, p := range listed {
		if p.FirstName != nameOf[p.ID] {
			t.Errorf("%s is listed as %q, AddParty returned it for %q", p.ID, p.FirstName, nameOf[p.ID])
		}
	}
}
