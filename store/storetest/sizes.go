package storetest

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// sizeTests check store.Sizes.
var sizeTests = []subtest{
	{"CountEachCollection", testCollectionSizes},
}

// collectionSizes reads the store's sizes, which must name every sized collection.
func collectionSizes(t *testing.T, s store.Store) map[string]int64 {
	t.Helper()
	got, err := s.CollectionSizes(t.Context())
	if err != nil {
		t.Fatalf("CollectionSizes = %v", err)
	}
	if names := slices.Sorted(maps.Keys(got)); !slices.Equal(names, slices.Sorted(slices.Values(store.SizedCollections))) {
		t.Fatalf("CollectionSizes names %v, want %v", names, store.SizedCollections)
	}
	return got
}

func testCollectionSizes(t *testing.T, s store.Store) {
	before := collectionSizes(t, s)
	c := createCase(t, s)
	fillCase(t, s, c)
	owner := store.OwnerID(c.OrgID, c.UserID)
	createDeadline(t, s, newDeadline(c.ID, owner, "2026-04-01"))
	linkCourtFile(t, s, c.ID, "1234/3/2024", time.Now().UTC())
	if _, err := s.AddMemoryFact(t.Context(), proposed(owner, c.ID, "Runs a bakery in Cluj.")); err != nil {
		t.Fatal(err)
	}
	addNotification(t, s, notification(owner, c.ID, time.Now().UTC()))

	after := collectionSizes(t, s)
	want := map[string]int64{store.SizeCases: 1, store.SizeTranscripts: 2, store.SizeParties: 1, store.SizeTickets: 1,
		store.SizeEvents: 3, store.SizeDeadlines: 1, store.SizeCourtFiles: 1, store.SizeMemoryFacts: 1, store.SizeNotifications: 1}
	for _, name := range store.SizedCollections {
		if d := after[name] - before[name]; d != want[name] {
			t.Errorf("%s grew by %d (%d to %d), want %d", name, d, before[name], after[name], want[name])
		}
	}
}
