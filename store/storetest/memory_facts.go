package storetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lexflow/lexflow/store"
)

// memoryFactTests check store.MemoryFacts.
var memoryFactTests = []subtest{
	{"AddIsIdempotent", testAddMemoryFactIdempotent},
	{"ListIsTheOwners", testListMemoryFacts},
	{"UpdateChangesWhatIsGiven", testUpdateMemoryFact},
	{"AnotherOwnersIsNotFound", testMemoryFactOwner},
	{"Bounded", testMemoryFactsBounded},
	{"Erase", testEraseMemoryFacts},
}

// proposed returns a fact proposed to owner from caseID.
func proposed(owner, caseID, text string) store.MemoryFact {
	return store.MemoryFact{ID: newID("fact"), Owner: owner, CaseID: caseID, Text: text, Status: store.FactProposed}
}

func testAddMemoryFactIdempotent(t *testing.T, s store.Store) {
	f := proposed(newID("user"), newID("case"), "Runs a bakery in Cluj.")
	for i, want := range []bool{true, false} {
		added, err := s.AddMemoryFact(t.Context(), f)
		if err != nil || added != want {
			t.Fatalf("AddMemoryFact #%d = %v, %v; want %v", i+1, added, err, want)
		}
	}
	got, err := s.GetMemoryFact(t.Context(), f.Owner, f.ID)
	if err != nil || got.Text != f.Text || got.Status != store.FactProposed || got.CaseID != f.CaseID || got.Owner != f.Owner ||
		!recent(got.CreatedAt) || !recent(got.UpdatedAt) {
		t.Errorf("GetMemoryFact = %+v, %v; want the fact added now", got, err)
	}
}

func testListMemoryFacts(t *testing.T, s store.Store) {
	owner, other, caseID := newID("user"), newID("user"), newID("case")
	for _, text := range []string{"first", "second", "third"} {
		if _, err := s.AddMemoryFact(t.Context(), proposed(owner, caseID, text)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AddMemoryFact(t.Context(), proposed(other, caseID, "not theirs")); err != nil {
		t.Fatal(err)
	}
	got, err := s.ListMemoryFacts(t.Context(), owner)
	if err != nil || len(got) != 3 {
		t.Fatalf("ListMemoryFacts = %+v, %v; want the owner's 3", got, err)
	}
	for i, f := range got {
		if f.Owner != owner || (i > 0 && f.CreatedAt.Before(got[i-1].CreatedAt)) {
			t.Errorf("fact %d = %+v; want the owner's, oldest first", i, f)
		}
	}
	if none, err := s.ListMemoryFacts(t.Context(), newID("user")); err != nil || len(none) != 0 {
		t.Errorf("ListMemoryFacts of a user with none = %+v, %v", none, err)
	}
}

func testUpdateMemoryFact(t *testing.T, s store.Store) {
	f := proposed(newID("user"), newID("case"), "Lives in Iași.")
	if _, err := s.AddMemoryFact(t.Context(), f); err != nil {
		t.Fatal(err)
	}
	kept, err := s.UpdateMemoryFact(t.Context(), f.Owner, f.ID, store.FactChange{Status: store.FactKept})
	if err != nil || kept.Status != store.FactKept || kept.Text != f.Text {
		t.Fatalf("approve = %+v, %v; want it kept with its text", kept, err)
	}
	edited, err := s.UpdateMemoryFact(t.Context(), f.Owner, f.ID, store.FactChange{Text: "Lives in Cluj."})
	if err != nil || edited.Status != store.FactKept || edited.Text != "Lives in Cluj." || edited.UpdatedAt.Before(kept.UpdatedAt) {
		t.Fatalf("edit = %+v, %v; want the new text, still kept", edited, err)
	}
	if got, err := s.GetMemoryFact(t.Context(), f.Owner, f.ID); err != nil || got.Text != "Lives in Cluj." || got.Status != store.FactKept {
		t.Errorf("GetMemoryFact after the edit = %+v, %v", got, err)
	}
}

func testMemoryFactOwner(t *testing.T, s store.Store) {
	f := proposed(newID("user"), newID("case"), "Has two children.")
	if _, err := s.AddMemoryFact(t.Context(), f); err != nil {
		t.Fatal(err)
	}
	stranger := newID("user")
	if _, err := s.GetMemoryFact(t.Context(), stranger, f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetMemoryFact by another user = %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateMemoryFact(t.Context(), stranger, f.ID, store.FactChange{Text: "changed"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateMemoryFact by another user = %v, want ErrNotFound", err)
	}
	if err := s.DeleteMemoryFact(t.Context(), stranger, f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeleteMemoryFact by another user = %v, want ErrNotFound", err)
	}
	if got, err := s.GetMemoryFact(t.Context(), f.Owner, f.ID); err != nil || got.Text != f.Text {
		t.Fatalf("the fact after another user's tries = %+v, %v; want it unchanged", got, err)
	}
	if err := s.DeleteMemoryFact(t.Context(), f.Owner, f.ID); err != nil {
		t.Fatalf("DeleteMemoryFact = %v", err)
	}
	if err := s.DeleteMemoryFact(t.Context(), f.Owner, f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeleteMemoryFact again = %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateMemoryFact(t.Context(), f.Owner, "no-such-fact", store.FactChange{Status: store.FactKept}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateMemoryFact of no fact = %v, want ErrNotFound", err)
	}
}

func testMemoryFactsBounded(t *testing.T, s store.Store) {
	owner, caseID := newID("user"), newID("case")
	var first store.MemoryFact
	for i := range store.MaxMemoryFacts {
		f := proposed(owner, caseID, fmt.Sprintf("fact %d", i))
		if i == 0 {
			first = f
		}
		if _, err := s.AddMemoryFact(t.Context(), f); err != nil {
			t.Fatalf("fact %d: %v", i, err)
		}
	}
	if _, err := s.AddMemoryFact(t.Context(), proposed(owner, caseID, "one too many")); !errors.Is(err, store.ErrTooManyFacts) {
		t.Errorf("AddMemoryFact past the bound = %v, want ErrTooManyFacts", err)
	}
	if added, err := s.AddMemoryFact(t.Context(), first); err != nil || added {
		t.Errorf("AddMemoryFact of a stored fact at the bound = %v, %v; want false, nil", added, err)
	}
}

func testEraseMemoryFacts(t *testing.T, s store.Store) {
	owner, other, caseID, otherCase := newID("user"), newID("user"), newID("case"), newID("case")
	kept, waiting, elsewhere, theirs := proposed(owner, caseID, "kept"), proposed(owner, caseID, "waiting"),
		proposed(owner, otherCase, "elsewhere"), proposed(other, caseID, "theirs")
	for _, f := range []store.MemoryFact{kept, waiting, elsewhere, theirs} {
		if _, err := s.AddMemoryFact(t.Context(), f); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.UpdateMemoryFact(t.Context(), owner, kept.ID, store.FactChange{Status: store.FactKept}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.EraseCaseProposals(t.Context(), caseID); err != nil || n != 2 {
		t.Fatalf("EraseCaseProposals = %d, %v; want the 2 facts still proposed from the case", n, err)
	}
	facts, err := s.ListMemoryFacts(t.Context(), owner)
	if err != nil || len(facts) != 2 || facts[0].ID != kept.ID && facts[1].ID != kept.ID {
		t.Fatalf("facts after the case's proposals went = %+v, %v; want the kept one and the other case's", facts, err)
	}
	if n, err := s.EraseMemoryFacts(t.Context(), owner); err != nil || n != 2 {
		t.Fatalf("EraseMemoryFacts = %d, %v; want 2", n, err)
	}
	if facts, err := s.ListMemoryFacts(t.Context(), owner); err != nil || len(facts) != 0 {
		t.Errorf("facts after erasure = %+v, %v; want none", facts, err)
	}
	if _, err := s.AddMemoryFact(t.Context(), proposed(other, otherCase, "still there")); err != nil {
		t.Fatal(err)
	}
	if facts, err := s.ListMemoryFacts(t.Context(), other); err != nil || len(facts) != 1 {
		t.Errorf("another user's facts = %+v, %v; want only the new one (theirs was a proposal of the erased case)", facts, err)
	}
}
