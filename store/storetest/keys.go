package storetest

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// keyTests check store.Keys.
var keyTests = []subtest{
	{"CreateKeepsTheFirst", testCreateKeyKeepsTheFirst},
	{"ConcurrentCreatesAgree", testConcurrentCreateKey},
	{"MissingKeyIsNotFound", testMissingKey},
	{"DestroyErasesForGood", testDestroyKey},
	{"RewrapOnlyFromItsMaster", testRewrapKey},
	{"ListInIDOrder", testListKeys},
}

func newKey(id, master string, wrapped string) store.DataKey {
	return store.DataKey{ID: id, Wrapped: []byte(wrapped), Master: master, CreatedAt: time.Now().UTC()}
}

func testCreateKeyKeepsTheFirst(t *testing.T, s store.Store) {
	id := newID("case:key")
	first, err := s.CreateKey(t.Context(), newKey(id, "m1", "first"))
	if err != nil || first.ID != id || string(first.Wrapped) != "first" || first.Master != "m1" || first.DestroyedAt != nil {
		t.Fatalf("CreateKey = %+v, %v", first, err)
	}
	again, err := s.CreateKey(t.Context(), newKey(id, "m2", "second"))
	if err != nil || string(again.Wrapped) != "first" || again.Master != "m1" || !sameTime(again.CreatedAt, first.CreatedAt) {
		t.Errorf("CreateKey again = %+v, %v; want the first key", again, err)
	}
	got, err := s.GetKey(t.Context(), id)
	if err != nil || string(got.Wrapped) != "first" {
		t.Errorf("GetKey = %+v, %v", got, err)
	}
}

func testConcurrentCreateKey(t *testing.T, s store.Store) {
	id := newID("case:key")
	const n = 6
	got := make([]store.DataKey, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			k, err := s.CreateKey(t.Context(), newKey(id, "m1", string(rune('a'+i))))
			if err != nil {
				t.Error(err)
			}
			got[i] = k
		})
	}
	wg.Wait()
	for _, k := range got[1:] {
		if !bytes.Equal(k.Wrapped, got[0].Wrapped) {
			t.Fatalf("concurrent creates returned %q and %q; want one key", got[0].Wrapped, k.Wrapped)
		}
	}
}

func testMissingKey(t *testing.T, s store.Store) {
	if _, err := s.GetKey(t.Context(), newID("case:none")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetKey of a missing key = %v, want ErrNotFound", err)
	}
	if _, err := s.DestroyKey(t.Context(), newID("case:none"), time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DestroyKey of a missing key = %v, want ErrNotFound", err)
	}
}

func testDestroyKey(t *testing.T, s store.Store) {
	id := newID("case:key")
	if _, err := s.CreateKey(t.Context(), newKey(id, "m1", "secret")); err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC().Add(-time.Minute)
	gone, err := s.DestroyKey(t.Context(), id, at)
	if err != nil || len(gone.Wrapped) != 0 || gone.DestroyedAt == nil || !sameTime(*gone.DestroyedAt, at) {
		t.Fatalf("DestroyKey = %+v, %v; want no wrapped bytes, destroyed at %s", gone, err, at)
	}
	again, err := s.DestroyKey(t.Context(), id, time.Now())
	if err != nil || again.DestroyedAt == nil || !sameTime(*again.DestroyedAt, at) {
		t.Errorf("DestroyKey again = %+v, %v; want the first time kept", again, err)
	}
	// The ID never holds a key again.
	k, err := s.CreateKey(t.Context(), newKey(id, "m1", "new"))
	if err != nil || len(k.Wrapped) != 0 || k.DestroyedAt == nil {
		t.Errorf("CreateKey of a destroyed ID = %+v, %v; want the destroyed key", k, err)
	}
	if ok, err := s.RewrapKey(t.Context(), id, "m1", []byte("again"), "m2"); ok || err != nil {
		t.Errorf("RewrapKey of a destroyed key = %v, %v; want false", ok, err)
	}
	if k, _ := s.GetKey(t.Context(), id); len(k.Wrapped) != 0 {
		t.Errorf("a destroyed key holds %q", k.Wrapped)
	}
}

func testRewrapKey(t *testing.T, s store.Store) {
	id := newID("case:key")
	if _, err := s.CreateKey(t.Context(), newKey(id, "m1", "by-m1")); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.RewrapKey(t.Context(), id, "m0", []byte("by-m2"), "m2"); ok || err != nil {
		t.Errorf("RewrapKey from a master that did not wrap it = %v, %v; want false", ok, err)
	}
	if ok, err := s.RewrapKey(t.Context(), id, "m1", []byte("by-m2"), "m2"); !ok || err != nil {
		t.Fatalf("RewrapKey = %v, %v; want true", ok, err)
	}
	if ok, err := s.RewrapKey(t.Context(), id, "m1", []byte("by-m3"), "m3"); ok || err != nil {
		t.Errorf("RewrapKey from the old master again = %v, %v; want false", ok, err)
	}
	if k, err := s.GetKey(t.Context(), id); err != nil || string(k.Wrapped) != "by-m2" || k.Master != "m2" {
		t.Errorf("after rewrapping: %+v, %v", k, err)
	}
}

func testListKeys(t *testing.T, s store.Store) {
	prefix := newID("list")
	ids := []string{prefix + "/c", prefix + "/a", prefix + "/b"}
	for _, id := range ids {
		if _, err := s.CreateKey(t.Context(), newKey(id, "m1", id)); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := s.ListKeys(t.Context(), prefix+"/", 2)
	if err != nil || len(keys) != 2 || keys[0].ID != prefix+"/a" || keys[1].ID != prefix+"/b" || string(keys[0].Wrapped) != prefix+"/a" {
		t.Fatalf("ListKeys first page = %+v, %v", keys, err)
	}
	keys, err = s.ListKeys(t.Context(), keys[1].ID, 2)
	if err != nil || len(keys) == 0 || keys[0].ID != prefix+"/c" {
		t.Errorf("ListKeys second page = %+v, %v", keys, err)
	}
}
