package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// disclosureTests check store.Disclosures.
var disclosureTests = []subtest{
	{"PutAndGet", testPutDisclosure},
}

func testPutDisclosure(t *testing.T, s store.Store) {
	org, other := newID("org"), newID("org")
	if _, err := s.GetDisclosure(t.Context(), org); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetDisclosure before any was set = %v, want ErrNotFound", err)
	}
	at := time.Now().UTC().Truncate(time.Millisecond)
	first := store.Disclosure{Org: org, Texts: map[string]string{"it": "Redatto con l'ausilio dell'IA.", "ro": "Redactat cu ajutorul IA."},
		On: map[string]bool{"it": true, "ro": false}, SetBy: "admin", UpdatedAt: at}
	if err := s.PutDisclosure(t.Context(), first); err != nil {
		t.Fatalf("PutDisclosure = %v", err)
	}
	got, err := s.GetDisclosure(t.Context(), org)
	if err != nil || got.Org != org || !reflect.DeepEqual(got.Texts, first.Texts) || !reflect.DeepEqual(got.On, first.On) ||
		got.SetBy != "admin" || !sameTime(got.UpdatedAt, at) {
		t.Errorf("GetDisclosure = %+v, %v; want %+v", got, err, first)
	}
	// A second setting replaces the first whole: a language it leaves out is unset.
	second := store.Disclosure{Org: org, On: map[string]bool{"en": true}, SetBy: "admin2", UpdatedAt: at.Add(time.Minute)}
	if err := s.PutDisclosure(t.Context(), second); err != nil {
		t.Fatalf("PutDisclosure = %v", err)
	}
	got, err = s.GetDisclosure(t.Context(), org)
	if err != nil || len(got.Texts) != 0 || !reflect.DeepEqual(got.On, second.On) || got.SetBy != "admin2" {
		t.Errorf("GetDisclosure after a replacement = %+v, %v; want %+v", got, err, second)
	}
	if _, err := s.GetDisclosure(t.Context(), other); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetDisclosure of another organization = %v, want ErrNotFound", err)
	}
}
