// Package blobtest is blob.Store's contract as tests: each backend's tests run Contract
// on stores of their own (blob.Dir on a temporary directory, gcsblob.Store on an
// in-process Cloud Storage server), and Sealing on blob.Sealed over them, so that every
// backend keeps the same promises.
package blobtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/internal/blob"
)

// Contract runs the contract's tests, each on a new empty store that open returns.
func Contract(t *testing.T, open func(t *testing.T) blob.Store) {
	for _, c := range []struct {
		name string
		test func(*testing.T, blob.Store)
	}{
		{"RoundTrip", roundTrip},
		{"NotExist", notExist},
		{"RejectsBadKeys", rejectsBadKeys},
		{"HonoursContext", honoursContext},
		{"OverwriteIsAtomic", overwriteIsAtomic},
		{"DeletePrefix", deletePrefix},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, open(t)) })
	}
}

// Read returns the whole blob under key, failing the test if it cannot.
func Read(t *testing.T, s blob.Store, key string) []byte {
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

// roundTrip: a blob reads back as it was stored, an empty one too, and a second Put
// replaces it.
func roundTrip(t *testing.T, s blob.Store) {
	ctx := context.Background()
	const key = "cases/abc/drafts/Cerere/rev-1.pdf"
	data := []byte("%PDF-1.4 cerere de chemare în judecată")
	if err := s.Put(ctx, key, data); err != nil {
		t.Fatal(err)
	}
	if got := Read(t, s, key); !bytes.Equal(got, data) {
		t.Fatalf("read %q, want %q", got, data)
	}
	if err := s.Put(ctx, key, []byte("%PDF-1.4 v2")); err != nil {
		t.Fatal(err)
	}
	if got := Read(t, s, key); string(got) != "%PDF-1.4 v2" {
		t.Errorf("read %q after a second Put", got)
	}
	if err := s.Put(ctx, "cases/abc/empty.json", nil); err != nil {
		t.Fatal(err)
	}
	if got := Read(t, s, "cases/abc/empty.json"); len(got) != 0 {
		t.Errorf("an empty blob reads %q", got)
	}
}

// notExist: a missing blob, a folder and a key below a blob are ErrNotExist.
func notExist(t *testing.T, s blob.Store) {
	ctx := context.Background()
	if err := s.Put(ctx, "cases/abc/file.pdf", []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"cases/abc/missing.pdf", "cases/xyz/file.pdf", "cases/abc", "cases/abc/file.pdf/below"} {
		if _, err := s.Open(ctx, key); !errors.Is(err, blob.ErrNotExist) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q) = %v, want ErrNotExist", key, err)
		}
	}
}

// BadKeys are keys that every store refuses with ErrBadKey.
var BadKeys = []string{"", ".", "/etc/passwd", "../outside", "cases/../../outside", "cases/./a", "cases//a", "cases/a/", `cases\a`, "cases/a\x00b"}

// rejectsBadKeys: Put and Open refuse bad keys, DeletePrefix bad folders, and
// nothing is stored under a key's cleaned form.
func rejectsBadKeys(t *testing.T, s blob.Store) {
	ctx := context.Background()
	for _, key := range BadKeys {
		if err := s.Put(ctx, key, []byte("x")); !errors.Is(err, blob.ErrBadKey) {
			t.Errorf("Put(%q) = %v, want ErrBadKey", key, err)
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, blob.ErrBadKey) {
			t.Errorf("Open(%q) = %v, want ErrBadKey", key, err)
		}
	}
	for _, folder := range []string{"cases/abc", "../", "/", "cases/../", "", "cases//"} {
		if _, err := s.DeletePrefix(ctx, folder); !errors.Is(err, blob.ErrBadKey) {
			t.Errorf("DeletePrefix(%q) = %v, want ErrBadKey", folder, err)
		}
	}
	if n, err := s.DeletePrefix(ctx, "cases/"); err != nil || n != 0 {
		t.Errorf("bad keys stored %d blobs under cases/ (%v)", n, err)
	}
}

// honoursContext: every call on a cancelled context fails with its error, and a Put
// on one stores nothing.
func honoursContext(t *testing.T, s blob.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Put(ctx, "cases/abc/a.pdf", []byte("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with a cancelled context = %v, want context.Canceled", err)
	}
	if _, err := s.Open(context.Background(), "cases/abc/a.pdf"); !errors.Is(err, blob.ErrNotExist) {
		t.Errorf("a Put with a cancelled context stored a blob: %v", err)
	}
	if err := s.Put(context.Background(), "cases/abc/b.pdf", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Open(ctx, "cases/abc/b.pdf"); !errors.Is(err, context.Canceled) {
		if err == nil {
			r.Close()
		}
		t.Errorf("Open with a cancelled context = %v, want context.Canceled", err)
	}
	if _, err := s.DeletePrefix(ctx, "cases/abc/"); !errors.Is(err, context.Canceled) {
		t.Errorf("DeletePrefix with a cancelled context = %v, want context.Canceled", err)
	}
	if got := Read(t, s, "cases/abc/b.pdf"); string(got) != "x" {
		t.Errorf("after a cancelled DeletePrefix the blob reads %q", got)
	}
}

// overwriteIsAtomic overwrites one blob from several writers while readers read it:
// every read sees one whole version, and the folder holds that blob alone after.
func overwriteIsAtomic(t *testing.T, s blob.Store) {
	ctx := context.Background()
	const key = "cases/abc/drafts/Cerere/rev-1.pdf"
	versions := map[string]bool{}
	var payloads [][]byte
	for i, size := range []int{10, 100_000, 3, 250_000} {
		p := bytes.Repeat([]byte{byte('a' + i)}, size)
		payloads = append(payloads, p)
		versions[string(p)] = true
	}
	if err := s.Put(ctx, key, payloads[0]); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := range 2 {
		wg.Go(func() {
			for i := range 30 {
				if err := s.Put(ctx, key, payloads[(w+i)%len(payloads)]); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range 60 {
				r, err := s.Open(ctx, key)
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
	if n, err := s.DeletePrefix(ctx, "cases/abc/"); err != nil || n != 1 {
		t.Errorf("DeletePrefix after the overwrites = %d, %v; want the one blob", n, err)
	}
}

// deletePrefix: DeletePrefix deletes and counts the folder's blobs, at any depth, and
// no other's: not a sibling whose name the folder's starts, nor a blob named like the
// folder; a folder without blobs deletes none.
func deletePrefix(t *testing.T, s blob.Store) {
	ctx := context.Background()
	for _, key := range []string{"cases/abc/drafts/Cerere/rev-1.pdf", "cases/abc/drafts/Cerere/rev-2.pdf", "cases/abc/tools/t1.json",
		"cases/abcd/drafts/Cerere/rev-1.pdf"} {
		if err := s.Put(ctx, key, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.DeletePrefix(ctx, "cases/abc/"); err != nil || n != 3 {
		t.Fatalf("DeletePrefix = %d, %v; want 3", n, err)
	}
	for _, key := range []string{"cases/abc/drafts/Cerere/rev-1.pdf", "cases/abc/tools/t1.json"} {
		if _, err := s.Open(ctx, key); !errors.Is(err, blob.ErrNotExist) {
			t.Errorf("Open(%q) after its folder's deletion = %v, want ErrNotExist", key, err)
		}
	}
	if got := Read(t, s, "cases/abcd/drafts/Cerere/rev-1.pdf"); string(got) != "x" {
		t.Errorf("another case's blob = %q", got)
	}
	for _, folder := range []string{"cases/abc/", "cases/none/", "cases/abcd/drafts/Cerere/rev-1.pdf/"} {
		if n, err := s.DeletePrefix(ctx, folder); err != nil || n != 0 {
			t.Errorf("DeletePrefix(%q) = %d, %v; want 0, nil", folder, n, err)
		}
	}
	if got := Read(t, s, "cases/abcd/drafts/Cerere/rev-1.pdf"); string(got) != "x" {
		t.Errorf("a blob named as a folder was deleted: %q", got)
	}
}
