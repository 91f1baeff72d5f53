// Package blob stores large binary objects, such as rendered PDFs, under slash-separated
// keys (cases/abc/drafts/Cerere/rev-1.pdf). Store is the seam; Dir keeps blobs as files
// in a local directory, package gcsblob in a Cloud Storage bucket, and Sealed encrypts
// the blobs of either.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Store keeps blobs by key. Put replaces a blob whole: a reader sees the old or the new
// data, never a mix. DeletePrefix deletes every blob under a folder ("cases/abc/")
// and says how many it deleted; a folder without blobs deletes none.
type Store interface {
	Put(ctx context.Context, key string, data []byte) error
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	DeletePrefix(ctx context.Context, folder string) (int, error)
}

var (
	// ErrNotExist is returned (wrapped) for a key with no blob. It is fs.ErrNotExist,
	// so errors.Is(err, fs.ErrNotExist) holds too.
	ErrNotExist = fs.ErrNotExist
	// ErrBadKey is returned (wrapped) for a key that is not a clean relative path.
	ErrBadKey = errors.New("bad blob key")
)

// CheckKey reports, wrapping ErrBadKey, why key is not a valid blob key: keys are
// non-empty relative paths of slash-separated names, none of them empty, "." or "..",
// with no backslash or NUL. Every Store checks its keys with it.
func CheckKey(key string) error {
	if key == "." || !fs.ValidPath(key) || strings.ContainsAny(key, "\\\x00") {
		return fmt.Errorf("%w %q: want a relative slash-separated path without empty, . or .. segments, backslashes or NUL", ErrBadKey, key)
	}
	return nil
}

// CheckFolder reports, wrapping ErrBadKey, why folder is not a folder that
// DeletePrefix takes: a valid key followed by a slash.
func CheckFolder(folder string) error {
	key, ok := strings.CutSuffix(folder, "/")
	if !ok {
		return fmt.Errorf("%w %q: a folder ends with a slash", ErrBadKey, folder)
	}
	return CheckKey(key)
}

// Dir is a Store that keeps each blob as a file under a root directory, readable only by
// its owner (blobs hold clients' documents).
type Dir struct {
	root string
}

var _ Store = (*Dir)(nil)

// NewDir returns a Dir that stores blobs under root, creating it if need be.
func NewDir(root string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("create blob directory: %w", err)
	}
	return &Dir{root: root}, nil
}

// path returns the file that holds key's blob.
func (d *Dir) path(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return filepath.Join(d.root, filepath.FromSlash(key)), nil
}

// Put stores data under key, creating parent directories. It writes a temporary file in
// the same directory, syncs it and renames it over the old blob, so the blob is
// replaced atomically and survives a crash once Put returns.
func (d *Dir) Put(ctx context.Context, key string, data []byte) error {
	path, err := d.path(key)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("put blob %q: %w", key, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("put blob %q: %w", key, err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once the rename has happened
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		return fmt.Errorf("put blob %q: %w", key, err)
	}
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// Open returns a reader of the blob under key; the caller closes it.
func (d *Dir) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	path, err := d.path(key)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, d.fail("open", key, err)
	}
	if fi, err := f.Stat(); err != nil || fi.IsDir() { // a directory is a prefix of other keys, not a blob
		f.Close()
		if err == nil {
			err = fs.ErrNotExist
		}
		return nil, d.fail("open", key, err)
	}
	return f, nil
}

// DeletePrefix removes the folder's directory and counts the files it held. A
// folder is a valid key followed by a slash.
func (d *Dir) DeletePrefix(ctx context.Context, folder string) (int, error) {
	if err := CheckFolder(folder); err != nil {
		return 0, err
	}
	path, err := d.path(strings.TrimSuffix(folder, "/"))
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if fi, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || err == nil && !fi.IsDir() {
		return 0, nil // no such folder: a blob's name is no folder
	}
	n := 0
	err = filepath.WalkDir(path, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			n++
		}
		return err
	})
	if err == nil {
		err = os.RemoveAll(path)
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		return 0, d.fail("delete", folder, err)
	}
	return n, nil
}

// fail describes a failed operation on key without the local path; a missing blob
// (including a key below a file, like a.pdf/b) wraps ErrNotExist.
func (d *Dir) fail(op, key string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("%s blob %q: %w", op, key, ErrNotExist)
	}
	return fmt.Errorf("%s blob %q: %w", op, key, err)
}
