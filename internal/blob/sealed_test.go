package blob_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/store/mongostore"
)

// mongoURI is the FerretDB that TestMain starts for the package's tests.
var mongoURI string

func TestMain(m *testing.M) { os.Exit(testenv.MainWithFerretDB(m.Run, &mongoURI)) }

// TestSealed: a sealed blob is ciphertext on disk, reads back whole under its own key,
// does not open when moved under another case's path or once its case's key is
// destroyed, and blobs stored before sealing read as they are.
func TestSealed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := mongostore.Open(ctx, mongoURI, fmt.Sprintf("blob_%d", time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	w, err := keys.NewLocal("blob-test-master-blob-test-master-blob-test")
	if err != nil {
		t.Fatal(err)
	}
	kr := keys.NewKeyring(st, w)
	d, err := blob.NewDir(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	s := blob.Sealed{Store: d, Keys: kr}
	pdf := []byte("%PDF-1.4 Subsemnata Ilinca Zăvoianu, CNP 2950317410021")
	if err := s.Put(ctx, "cases/a/drafts/N/rev-1.pdf", pdf); err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile(filepath.Join(dir, "blobs", "cases", "a", "drafts", "N", "rev-1.pdf"))
	if err != nil || bytes.Contains(onDisk, []byte("Zăvoianu")) || bytes.Contains(onDisk, []byte("2950317410021")) {
		t.Fatalf("the file on disk holds the text (%v)", err)
	}
	if got := readAll(t, s, "cases/a/drafts/N/rev-1.pdf"); !bytes.Equal(got, pdf) {
		t.Errorf("read back %q", got)
	}
	// Moved under another case, it does not open.
	if err := d.Put(ctx, "cases/b/drafts/N/rev-1.pdf", onDisk); err != nil {
		t.Fatal(err)
	}
	if _, err := kr.Ensure(ctx, keys.CaseKeyID("b")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "cases/b/drafts/N/rev-1.pdf"); !errors.Is(err, keys.ErrDecrypt) {
		t.Errorf("a blob moved under another case opened: %v", err)
	}
	// Stored before sealing: read as it is.
	if err := d.Put(ctx, "cases/a/old.pdf", []byte("%PDF old")); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, s, "cases/a/old.pdf"); string(got) != "%PDF old" {
		t.Errorf("an old blob reads %q", got)
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
	if err := s.Put(ctx, "../x", pdf); !errors.Is(err, blob.ErrBadKey) {
		t.Errorf("Put of a bad key = %v, want ErrBadKey", err)
	}
}

func readAll(t *testing.T, s blob.Store, key string) []byte {
	t.Helper()
	r, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
