package blob_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/blob/blobtest"
)

func newDir(t *testing.T) (*blob.Dir, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "blobs") // NewDir creates it
	d, err := blob.NewDir(root)
	if err != nil {
		t.Fatal(err)
	}
	return d, root
}

// TestDirContract: Dir keeps blob.Store's contract.
func TestDirContract(t *testing.T) {
	blobtest.Contract(t, func(t *testing.T) blob.Store {
		d, _ := newDir(t)
		return d
	})
}

// TestDirFiles: a blob is a file under the root at its key's path, readable by its
// owner only, in directories only its owner can enter.
func TestDirFiles(t *testing.T) {
	ctx := context.Background()
	d, root := newDir(t)
	if err := d.Put(ctx, "cases/abc/drafts/Cerere/rev-1.pdf", []byte("%PDF-1.4")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(root, "cases", "abc", "drafts", "Cerere", "rev-1.pdf"))
	if err != nil {
		t.Fatalf("the blob is not a file under the root: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("blob mode = %v, want 0600", fi.Mode().Perm())
	}
	if di, err := os.Stat(filepath.Join(root, "cases")); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("blob directory: %v, %v; want mode 0700", di, err)
	}
}

// TestDirBadKeysStayInTheRoot: a bad key writes nothing, in the root or outside it.
func TestDirBadKeysStayInTheRoot(t *testing.T) {
	ctx := context.Background()
	d, root := newDir(t)
	for _, key := range blobtest.BadKeys {
		if err := d.Put(ctx, key, []byte("x")); !errors.Is(err, blob.ErrBadKey) {
			t.Errorf("Put(%q) = %v, want ErrBadKey", key, err)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("bad keys left %d entries in the root", len(entries))
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "outside")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a bad key wrote outside the root")
	}
}

// TestDirLeavesNoTemporaryFiles: after overwrites, the blob's directory holds the blob
// alone, and DeletePrefix removes the folder's directory.
func TestDirLeavesNoTemporaryFiles(t *testing.T) {
	ctx := context.Background()
	d, root := newDir(t)
	const key = "cases/abc/drafts/Cerere/rev-1.pdf"
	for i := range 5 {
		if err := d.Put(ctx, key, []byte(strings.Repeat("x", i))); err != nil {
			t.Fatal(err)
		}
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			files = append(files, strings.TrimPrefix(path, root+string(filepath.Separator)))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0] != filepath.FromSlash(key) {
		t.Errorf("files under the root = %q, want only the blob", files)
	}
	if n, err := d.DeletePrefix(ctx, "cases/abc/"); err != nil || n != 1 {
		t.Fatalf("DeletePrefix = %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(filepath.Join(root, "cases", "abc")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the case's folder is still there: %v", err)
	}
}
