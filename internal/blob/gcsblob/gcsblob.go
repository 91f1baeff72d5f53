// Package gcsblob keeps blobs in a Google Cloud Storage bucket, where seed 003 (Relex)
// keeps its drafts: a blob.Store whose blobs are objects named by their keys. It is a
// package of its own so that the Cloud Storage client, and the server its tests run
// in-process, stay out of the packages that only need blob.Store.
package gcsblob

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"cloud.google.com/go/storage"
	"golang.org/x/sync/errgroup"
	"google.golang.org/api/iterator"
	"google.golang.org/api/option"

	"github.com/lexflow/lexflow/internal/blob"
)

// Options say which bucket a Store keeps its blobs in, and how to reach it.
type Options struct {
	// Bucket is the bucket's name; required.
	Bucket string
	// Endpoint, when set, is a Cloud Storage emulator's base URL
	// (http://127.0.0.1:4443), called without credentials; empty means Cloud Storage
	// itself, with the application's default credentials.
	Endpoint string
	// Timeout bounds each call to Cloud Storage: an upload, a read from Open to
	// Close, a page of a listing, a deletion. Zero means DefaultTimeout.
	Timeout time.Duration
}

// DefaultTimeout is the bound of one call when Options.Timeout is zero: a 20 MB
// document (LEXFLOW_MAX_UPLOAD_MB's default) needs less than 3 Mbit/s within it.
const DefaultTimeout = time.Minute

// pageSize is how many objects a page of DeletePrefix's listing holds, Cloud
// Storage's largest page; deleteWorkers how many of them it deletes at once.
const (
	pageSize      = 1000
	deleteWorkers = 8
)

// maxNameBytes is the longest object name Cloud Storage takes.
const maxNameBytes = 1024

// castagnoli is the CRC32C table, the checksum Cloud Storage verifies uploads with.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Store is a blob.Store on a Cloud Storage bucket. Put uploads the whole blob in one
// request and Cloud Storage makes an object visible only once it is complete, so a
// reader sees the old or the new blob, never a mix. The client library's own retries
// are off: an activity that fails is retried by Temporal's policy, an API request by
// its client. Cloud Storage has no folders, so unlike Dir it does not refuse a key
// below another blob's key.
type Store struct {
	client   *storage.Client
	bucket   *storage.BucketHandle
	name     string
	timeout  time.Duration
	pageSize int
}

var _ blob.Store = (*Store)(nil)

// New returns a Store on the bucket that o names, once it has listed an object of it,
// so that a missing bucket or permission is found at start-up rather than at the
// first draft. Close releases it.
func New(ctx context.Context, o Options) (*Store, error) {
	s, err := open(ctx, o)
	if err != nil {
		return nil, err
	}
	if _, _, err := s.list(ctx, "", "", 1); err != nil {
		s.Close()
		return nil, fmt.Errorf("cloud storage bucket %q: %w", o.Bucket, err)
	}
	return s, nil
}

// open returns a Store on the bucket that o names, without calling Cloud Storage.
func open(ctx context.Context, o Options) (*Store, error) {
	if o.Bucket == "" {
		return nil, errors.New("cloud storage: no bucket named")
	}
	opts := []option.ClientOption{storage.WithDisabledClientMetrics()}
	if o.Endpoint != "" {
		opts = append(opts, option.WithEndpoint(strings.TrimSuffix(o.Endpoint, "/")+"/storage/v1/"), option.WithoutAuthentication())
	}
	client, err := storage.NewClient(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("cloud storage client: %w", err)
	}
	client.SetRetry(storage.WithPolicy(storage.RetryNever))
	s := &Store{client: client, bucket: client.Bucket(o.Bucket), name: o.Bucket, timeout: o.Timeout, pageSize: pageSize}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	return s, nil
}

// Close releases the client's connections.
func (s *Store) Close() error { return s.client.Close() }

// checkName reports, wrapping blob.ErrBadKey, why a valid key or folder is no object
// name that Cloud Storage takes: one of valid UTF-8, at most 1024 bytes, without CR
// or LF.
func checkName(key string) error {
	if !utf8.ValidString(key) || len(key) > maxNameBytes || strings.ContainsAny(key, "\r\n") {
		return fmt.Errorf("%w %q: cloud storage takes names of valid UTF-8, at most %d bytes, without CR or LF", blob.ErrBadKey, key, maxNameBytes)
	}
	return nil
}

// Put uploads data as the object key, with its CRC32C, which Cloud Storage checks
// before it keeps the object.
func (s *Store) Put(ctx context.Context, key string, data []byte) error {
	if err := blob.CheckKey(key); err != nil {
		return err
	}
	if err := checkName(key); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	w := s.bucket.Object(key).NewWriter(ctx)
	w.ContentType = "application/octet-stream"
	w.ChunkSize = 0 // one request: data is in memory, and a failed upload is retried whole
	w.CRC32C, w.SendCRC32C = crc32.Checksum(data, castagnoli), true
	if _, err := w.Write(data); err != nil {
		cancel() // abandons the upload
		_ = w.Close()
		return s.fail("put", key, err)
	}
	if err := w.Close(); err != nil {
		return s.fail("put", key, err)
	}
	return nil
}

// Open returns a reader of the object key; the caller closes it, within the Store's
// timeout.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := blob.CheckKey(key); err != nil {
		return nil, err
	}
	if err := checkName(key); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	r, err := s.bucket.Object(key).NewReader(ctx)
	if err != nil {
		cancel()
		return nil, s.fail("open", key, err)
	}
	return &reader{Reader: r, cancel: cancel}, nil
}

// reader is an object's reader that releases its timeout when closed.
type reader struct {
	*storage.Reader
	cancel context.CancelFunc
}

func (r *reader) Close() error {
	err := r.Reader.Close()
	r.cancel()
	return err
}

// DeletePrefix deletes every object whose name starts with folder, a page of the
// listing at a time, every generation of each (a bucket with object versioning keeps
// the old ones otherwise), and counts the blobs it deleted: the live objects, not
// their noncurrent generations. An object deleted meanwhile by another caller is not
// counted.
func (s *Store) DeletePrefix(ctx context.Context, folder string) (int, error) {
	if err := blob.CheckFolder(folder); err != nil {
		return 0, err
	}
	if err := checkName(folder); err != nil {
		return 0, err
	}
	n, token := 0, ""
	for {
		page, next, err := s.list(ctx, folder, token, s.pageSize)
		if err != nil {
			return 0, s.fail("delete", folder, err)
		}
		deleted, err := s.delete(ctx, page)
		if err != nil {
			return 0, s.fail("delete", folder, err)
		}
		n += deleted
		if next == "" {
			return n, nil
		}
		token = next
	}
}

// list returns up to size objects, every generation, whose names start with prefix,
// from the page token on, and the next page's token ("" after the last page).
func (s *Store) list(ctx context.Context, prefix, token string, size int) ([]*storage.ObjectAttrs, string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	q := &storage.Query{Prefix: prefix, Versions: true}
	if err := q.SetAttrSelection([]string{"Name", "Generation", "Deleted"}); err != nil {
		return nil, "", err
	}
	it := s.bucket.Objects(ctx, q)
	var page []*storage.ObjectAttrs
	next, err := iterator.NewPager(it, size, token).NextPage(&page)
	return page, next, err
}

// delete deletes the objects' generations, deleteWorkers at a time, and counts the
// live ones it deleted.
func (s *Store) delete(ctx context.Context, objs []*storage.ObjectAttrs) (int, error) {
	var n atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(deleteWorkers)
	for _, o := range objs {
		g.Go(func() error {
			ctx, cancel := context.WithTimeout(ctx, s.timeout)
			defer cancel()
			err := s.bucket.Object(o.Name).Generation(o.Generation).Delete(ctx)
			if errors.Is(err, storage.ErrObjectNotExist) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s#%d: %w", o.Name, o.Generation, err)
			}
			if o.Deleted.IsZero() {
				n.Add(1)
			}
			return nil
		})
	}
	err := g.Wait()
	return int(n.Load()), err
}

// fail describes a failed operation on key; a missing object wraps blob.ErrNotExist.
func (s *Store) fail(op, key string, err error) error {
	if errors.Is(err, storage.ErrObjectNotExist) {
		return fmt.Errorf("%s blob %q: %w", op, key, blob.ErrNotExist)
	}
	return fmt.Errorf("%s blob %q in cloud storage bucket %q: %w", op, key, s.name, err)
}
