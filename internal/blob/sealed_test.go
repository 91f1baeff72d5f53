package blob_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/blob/blobtest"
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
	blobtest.Sealing(t, s, kr, func(key string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, "blobs", filepath.FromSlash(key)))
	})
	if err := s.Put(ctx, "../x", []byte("%PDF")); !errors.Is(err, blob.ErrBadKey) {
		t.Errorf("Put of a bad key = %v, want ErrBadKey", err)
	}
}
