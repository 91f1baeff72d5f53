package blobtest

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/keys"
)

// Sealing checks blob.Sealed's promises over a backend, for each backend's tests: a
// sealed blob is ciphertext in the backend (stored reads what the backend holds under a
// key), reads back whole under its own key, does not open when copied under another
// case's key or once its case's key is destroyed (nor can one be stored then), and a
// blob stored before sealing reads as it is. It uses the cases "a" and "b" of kr.
func Sealing(t *testing.T, s blob.Sealed, kr *keys.Keyring, stored func(key string) ([]byte, error)) {
	t.Helper()
	ctx := context.Background()
	pdf := []byte("%PDF-1.4 Subsemnata Ilinca Zăvoianu, CNP 2950317410021")
	if err := s.Put(ctx, "cases/a/drafts/N/rev-1.pdf", pdf); err != nil {
		t.Fatal(err)
	}
	raw, err := stored("cases/a/drafts/N/rev-1.pdf")
	if err != nil || bytes.Contains(raw, []byte("Zăvoianu")) || bytes.Contains(raw, []byte("2950317410021")) {
		t.Fatalf("the backend holds the text (%v)", err)
	}
	if got := Read(t, s, "cases/a/drafts/N/rev-1.pdf"); !bytes.Equal(got, pdf) {
		t.Errorf("read back %q", got)
	}
	if err := s.Store.Put(ctx, "cases/b/drafts/N/rev-1.pdf", raw); err != nil {
		t.Fatal(err)
	}
	if _, err := kr.Ensure(ctx, keys.CaseKeyID("b")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "cases/b/drafts/N/rev-1.pdf"); !errors.Is(err, keys.ErrDecrypt) {
		t.Errorf("a blob copied under another case opened: %v", err)
	}
	if err := s.Store.Put(ctx, "cases/a/old.pdf", []byte("%PDF old")); err != nil {
		t.Fatal(err)
	}
	if got := Read(t, s, "cases/a/old.pdf"); string(got) != "%PDF old" {
		t.Errorf("a blob stored before sealing reads %q", got)
	}
	if _, err := kr.Destroy(ctx, keys.CaseKeyID("a")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "cases/a/drafts/N/rev-1.pdf"); !errors.Is(err, keys.ErrDestroyed) {
		t.Errorf("a blob of an erased case opened: %v", err)
	}
	if err := s.Put(ctx, "cases/a/drafts/N/rev-2.pdf", pdf); !errors.Is(err, keys.ErrDestroyed) {
		t.Errorf("a blob was stored for an erased case: %v", err)
	}
}
