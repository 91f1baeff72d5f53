package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func newDir(t *testing.T) (*Dir, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "blobs") // NewDir creates it
	d, err := NewDir(root)
	if err != nil {
		t.Fatal(err)
	}
	return d, root
}

func read(t *testing.T, s Store, key string) []byte {
	t.Helper()
	r, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDirRoundTrip(t *testing.T) {
	ctx := context.Background()
	d, root := newDir(t)
	const key = "cases/abc/drafts/Cerere/rev-1.pdf"
	data := []byte("%PDF-1.4 cerere de chemare în judecată")
	if err := d.Put(ctx, key, data); err != nil {
		t.Fatal(err)
	}
	if got := read(t, d, key); !bytes.Equal(got, data) {
		t.Fatalf("read %q, want %q", got, data)
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

func TestDirNotExist(t *testing.T) {
	ctx := context.Background()
	d, _ := newDir(t)
	if err := d.Put(ctx, "cases/abc/file.pdf", []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"cases/abc/missing.pdf", "cases/xyz/file.pdf", "cases/abc", "cases/abc/file.pdf/below"} {
		if _, err := d.Open(ctx, key); !errors.Is(err, ErrNotExist) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q) = %v, want ErrNotExist", key, err)
		}
	}
}

func TestDirRejectsBadKeys(t *testing.T) {
	ctx := context.Background()
	d, root := newDir(t)
	for _, key := range []string{"", ".", "/etc/passwd", "../outside", "cases/../../outside", "cases/./a", "cases//a", "cases/a/", `cases\a`, "cases/a\x00b"} {
		if err := d.Put(ctx, key, []byte("x")); !errors.Is(err, ErrBadKey) {
			t.Errorf("Put(%q) = %v, want ErrBadKey", key, err)
		}
		if _, err := d.Open(ctx, key); !errors.Is(err, ErrBadKey) {
			t.Errorf("Open(%q) = %v, want ErrBadKey", key, err)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("bad keys left %d entries in the root", len(entries))
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "outside")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a bad key wrote outside the root")
	}
}

func TestDirPutHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, _ := newDir(t)
	if err := d.Put(ctx, "a.pdf", []byte("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Put with a cancelled context = %v, want context.Canceled", err)
	}
}

// TestDirOverwriteIsAtomic overwrites one blob from several writers while readers read
// it: every read sees one whole version, and no temporary file is left behind.
func TestDirOverwriteIsAtomic(t *testing.T) {
	ctx := context.Background()
	d, root := newDir(t)
	const key = "cases/abc/drafts/Cerere/rev-1.pdf"
	versions := map[string]bool{}
	var payloads [][]byte
	for i, size := range []int{10, 100_000, 3, 250_000} {
		p := bytes.Repeat([]byte{byte('a' + i)}, size)
		payloads = append(payloads, p)
		versions[string(p)] = true
	}
	if err := d.Put(ctx, key, payloads[0]); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := range 2 {
		wg.Go(func() {
			for i := range 50 {
				if err := d.Put(ctx, key, payloads[(w+i)%len(payloads)]); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range 100 {
				r, err := d.Open(ctx, key)
				if err != nil {
					errs <- err
					return
				}
				data, err := io.ReadAll(r)
				r.Close()
				if err != nil {
					errs <- err
					return
				}
				if !versions[string(data)] {
					errs <- fmt.Errorf("a reader saw a partial or mixed blob of %d bytes", len(data))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
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
}

func TestDirDeletePrefix(t *testing.T) {
	ctx := context.Background()
	d, root := newDir(t)
	for _, key := range []string{"cases/abc/drafts/Cerere/rev-1.pdf", "cases/abc/drafts/Cerere/rev-2.pdf", "cases/abc/tools/t1.json",
		"cases/abcd/drafts/Cerere/rev-1.pdf"} {
		if err := d.Put(ctx, key, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := d.DeletePrefix(ctx, "cases/abc/"); err != nil || n != 3 {
		t.Fatalf("DeletePrefix = %d, %v; want 3", n, err)
	}
	if _, err := os.Stat(filepath.Join(root, "cases", "abc")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the case's folder is still there: %v", err)
	}
	if got := read(t, d, "cases/abcd/drafts/Cerere/rev-1.pdf"); string(got) != "x" {
		t.Errorf("another case's blob = %q", got)
	}
	for _, folder := range []string{"cases/abc/", "cases/none/", "cases/abcd/drafts/Cerere/rev-1.pdf/"} {
		if n, err := d.DeletePrefix(ctx, folder); err != nil || n != 0 {
			t.Errorf("DeletePrefix(%q) = %d, %v; want 0, nil", folder, n, err)
		}
	}
	if got := read(t, d, "cases/abcd/drafts/Cerere/rev-1.pdf"); string(got) != "x" {
		t.Errorf("a blob named as a folder was deleted: %q", got)
	}
	for _, folder := range []string{"cases/abc", "../", "/", "cases/../", ""} {
		if _, err := d.DeletePrefix(ctx, folder); !errors.Is(err, ErrBadKey) {
			t.Errorf("DeletePrefix(%q) = %v, want ErrBadKey", folder, err)
		}
	}
}
