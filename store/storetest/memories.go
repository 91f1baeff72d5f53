package storetest

import (
	"testing"

	"github.com/lexflow/lexflow/store"
)

// memoryTests check store.Memories.
var memoryTests = []subtest{
	{"UnknownUserIsEmpty", testUnknownUserMemory},
	{"PutReplaces", testPutMemoryReplaces},
}

func testUnknownUserMemory(t *testing.T, s store.Store) {
	user := newID("user")
	m, err := s.GetMemory(t.Context(), user)
	if err != nil || m.Text != "" || m.UserID != user {
		t.Fatalf("GetMemory of a user without one = %+v, %v; want an empty text of %s", m, err, user)
	}
}

func testPutMemoryReplaces(t *testing.T, s store.Store) {
	user, other := newID("user"), newID("user")
	for _, text := range []string{"Prefers answers in Romanian.", "Prefers answers in Italian."} {
		m, err := s.PutMemory(t.Context(), user, text)
		if err != nil || m.Text != text || m.UserID != user || !recent(m.UpdatedAt) {
			t.Fatalf("PutMemory(%q) = %+v, %v", text, m, err)
		}
	}
	m, err := s.GetMemory(t.Context(), user)
	if err != nil || m.Text != "Prefers answers in Italian." || m.UserID != user || !recent(m.UpdatedAt) {
		t.Errorf("GetMemory = %+v, %v; want the second text, updated about now", m, err)
	}
	if m, err := s.GetMemory(t.Context(), other); err != nil || m.Text != "" {
		t.Errorf("another user's memory = %+v, %v; want it empty", m, err)
	}
}
