package gcsblob_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsouza/fake-gcs-server/fakestorage"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/blob/blobtest"
	"github.com/lexflow/lexflow/internal/blob/gcsblob"
	"github.com/lexflow/lexflow/internal/testenv"
)

// server is the Cloud Storage server the package's tests share, fake-gcs-server run
// in-process: the client reaches it over HTTP on loopback, at endpoint, as it would
// Cloud Storage, its JSON API for uploads, listings and deletions and its XML API
// for reads.
var server *fakestorage.Server

// endpoint is the loopback URL that serves server's handler one request at a time.
var endpoint string

// mongoURI is the FerretDB that holds the data keys (and the cases the erasure test
// erases).
var mongoURI string

func TestMain(m *testing.M) {
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{NoListener: true, PublicHost: "127.0.0.1"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-gcs-server:", err)
		os.Exit(1)
	}
	server = srv
	ts := httptest.NewServer(oneAtATime(srv.HTTPHandler()))
	endpoint = ts.URL
	code := testenv.MainWithFerretDB(m.Run, &mongoURI)
	ts.Close()
	srv.Stop()
	os.Exit(code)
}

// oneAtATime serves h one request at a time. fake-gcs-server's memory backend
// (v1.56.1, internal/backend/memory.go:327) appends to a bucket's shared object
// slice under a read lock when a request names a generation, so two deletions of
// versioned objects at once race inside the fake; the client's concurrency is
// Cloud Storage's to serve, not a fault of the code under test.
func oneAtATime(h http.Handler) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// buckets numbers the tests' buckets, one per store.
var buckets atomic.Int64

// newBucket creates an empty bucket, with object versioning if versioned, and
// returns its name.
func newBucket(versioned bool) string {
	name := fmt.Sprintf("lexflow-test-%d", buckets.Add(1))
	server.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: name, VersioningEnabled: versioned})
	return name
}

// newStore returns a Store on a new bucket of the server, and closes it after the test.
func newStore(t *testing.T, versioned bool) (*gcsblob.Store, string) {
	t.Helper()
	bucket := newBucket(versioned)
	s, err := gcsblob.New(t.Context(), gcsblob.Options{Bucket: bucket, Endpoint: endpoint})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, bucket
}

// generations lists every generation of every object under prefix in bucket, as
// "name#generation", read from the server itself.
func generations(t *testing.T, bucket, prefix string) []string {
	t.Helper()
	list, err := server.ListObjectsWithOptionsPaginated(bucket, fakestorage.ListOptions{Prefix: prefix, Versions: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, o := range list.Objects {
		out = append(out, fmt.Sprintf("%s#%d", o.Name, o.Generation))
	}
	return out
}

// TestContract: Store keeps blob.Store's contract, on a bucket of its own and on one
// with object versioning.
func TestContract(t *testing.T) {
	for _, versioned := range []bool{false, true} {
		t.Run(fmt.Sprintf("versioned=%v", versioned), func(t *testing.T) {
			blobtest.Contract(t, func(t *testing.T) blob.Store {
				s, _ := newStore(t, versioned)
				return s
			})
		})
	}
}

// TestPutKeepsAnObject: a blob is one object named by its key, holding its bytes.
func TestPutKeepsAnObject(t *testing.T) {
	s, bucket := newStore(t, false)
	if err := s.Put(t.Context(), "cases/a/drafts/N/rev-1.pdf", []byte("%PDF-1.4")); err != nil {
		t.Fatal(err)
	}
	o, err := server.GetObject(bucket, "cases/a/drafts/N/rev-1.pdf")
	if err != nil || string(o.Content) != "%PDF-1.4" {
		t.Fatalf("the object: %q, %v", o.Content, err)
	}
	if o.ContentType != "application/octet-stream" {
		t.Errorf("content type %q, want application/octet-stream", o.ContentType)
	}
}

// TestDeletePrefixPagesThroughGenerations: DeletePrefix goes through every page of
// the listing (of two objects here), deletes every generation of a versioned
// bucket's objects, counts the blobs alone, and leaves other folders.
func TestDeletePrefixPagesThroughGenerations(t *testing.T) {
	ctx := t.Context()
	s, bucket := newStore(t, true)
	s.SetPageSize(2)
	var keys []string
	for i := range 7 {
		keys = append(keys, fmt.Sprintf("cases/a/drafts/N/rev-%d.pdf", i+1))
	}
	for _, key := range append(keys, "cases/b/drafts/N/rev-1.pdf", "cases/ab/x.json") {
		if err := s.Put(ctx, key, []byte("v1 "+key)); err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range keys[:3] { // a second generation each, the first kept as noncurrent
		if err := s.Put(ctx, key, []byte("v2 "+key)); err != nil {
			t.Fatal(err)
		}
	}
	if got := generations(t, bucket, "cases/a/"); len(got) != 10 {
		t.Fatalf("before: %d generations under the folder (%q), want 10", len(got), got)
	}
	n, err := s.DeletePrefix(ctx, "cases/a/")
	if err != nil || n != 7 {
		t.Fatalf("DeletePrefix = %d, %v; want 7 blobs", n, err)
	}
	if got := generations(t, bucket, "cases/a/"); len(got) != 0 {
		t.Errorf("generations left under the folder: %q", got)
	}
	if got := generations(t, bucket, "cases/"); len(got) != 2 {
		t.Errorf("other folders' generations: %q, want cases/ab/x.json and cases/b/'s draft", got)
	}
	if got := blobtest.Read(t, s, "cases/b/drafts/N/rev-1.pdf"); string(got) != "v1 cases/b/drafts/N/rev-1.pdf" {
		t.Errorf("another case's draft reads %q", got)
	}
}

// TestRefusesNamesCloudStorageRefuses: a key Cloud Storage cannot name an object
// with is a bad key, before any call.
func TestRefusesNamesCloudStorageRefuses(t *testing.T) {
	ctx := t.Context()
	s, bucket := newStore(t, false)
	for _, key := range []string{"cases/a/line\nbreak.pdf", "cases/a/cr\r.pdf", "cases/a/\xff.pdf", "cases/a/" + strings.Repeat("x", 1020)} {
		if err := s.Put(ctx, key, []byte("x")); !errors.Is(err, blob.ErrBadKey) {
			t.Errorf("Put(%.20q) = %v, want ErrBadKey", key, err)
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, blob.ErrBadKey) {
			t.Errorf("Open(%.20q) = %v, want ErrBadKey", key, err)
		}
		if _, err := s.DeletePrefix(ctx, key+"/"); !errors.Is(err, blob.ErrBadKey) {
			t.Errorf("DeletePrefix(%.20q) = %v, want ErrBadKey", key, err)
		}
	}
	if got := generations(t, bucket, ""); len(got) != 0 {
		t.Errorf("objects stored: %q", got)
	}
}

// TestNewFindsAMissingBucket: a bucket that does not exist fails New, naming it.
func TestNewFindsAMissingBucket(t *testing.T) {
	s, err := gcsblob.New(t.Context(), gcsblob.Options{Bucket: "no-such-bucket", Endpoint: endpoint})
	if err == nil {
		s.Close()
		t.Fatal("New on a missing bucket succeeded")
	}
	if !strings.Contains(err.Error(), `"no-such-bucket"`) {
		t.Errorf("the error does not name the bucket: %v", err)
	}
	if _, err := gcsblob.New(t.Context(), gcsblob.Options{Endpoint: endpoint}); err == nil {
		t.Error("New without a bucket succeeded")
	}
}

// TestTimeoutBoundsEveryCall: against a server that accepts connections and never
// answers, New, Put, Open and DeletePrefix each fail by the store's timeout.
func TestTimeoutBoundsEveryCall(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var held []net.Conn
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // read by no one: every request hangs
		}
	}()
	defer func() {
		l.Close()
		<-accepted
		for _, c := range held {
			c.Close()
		}
	}()
	o := gcsblob.Options{Bucket: "hung", Endpoint: "http://" + l.Addr().String(), Timeout: 300 * time.Millisecond}
	if s, err := gcsblob.New(t.Context(), o); !errors.Is(err, context.DeadlineExceeded) {
		if err == nil {
			s.Close()
		}
		t.Errorf("New on a hung server = %v, want context.DeadlineExceeded", err)
	}
	s, err := gcsblob.OpenUnchecked(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(t.Context(), "cases/a/x.pdf", []byte("x")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Put on a hung server = %v, want context.DeadlineExceeded", err)
	}
	if r, err := s.Open(t.Context(), "cases/a/x.pdf"); !errors.Is(err, context.DeadlineExceeded) {
		if err == nil {
			r.Close()
		}
		t.Errorf("Open on a hung server = %v, want context.DeadlineExceeded", err)
	}
	if _, err := s.DeletePrefix(t.Context(), "cases/a/"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("DeletePrefix on a hung server = %v, want context.DeadlineExceeded", err)
	}
}
