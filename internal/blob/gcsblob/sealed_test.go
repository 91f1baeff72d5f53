package gcsblob_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/blob/blobtest"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
	"github.com/lexflow/lexflow/wiring"
)

// openMongo returns a database of its own on the package's FerretDB, and a keyring
// whose data keys it holds.
func openMongo(t *testing.T) (*mongostore.Store, *keys.Keyring) {
	t.Helper()
	st, err := mongostore.Open(t.Context(), mongoURI, fmt.Sprintf("gcsblob_%d", time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	w, err := keys.NewLocal("gcsblob-test-master-gcsblob-test-master-key")
	if err != nil {
		t.Fatal(err)
	}
	return st, keys.NewKeyring(st, w)
}

// wiredBlobs returns the blob store that wiring builds from a configuration naming
// a new bucket of the package's server (LEXFLOW_BLOB=gcs), sealed with kr as every
// Lexflow process seals it, and the bucket's name.
func wiredBlobs(t *testing.T, kr *keys.Keyring, versioned bool) (blob.Store, string) {
	t.Helper()
	bucket := newBucket(versioned)
	env := map[string]string{"LEXFLOW_BLOB": "gcs", "LEXFLOW_BLOB_BUCKET": bucket, "LEXFLOW_GCS_ENDPOINT": endpoint,
		"LEXFLOW_DATA_DIR": t.TempDir()}
	cfg, err := config.From(func(name string) (string, bool) { v, ok := env[name]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	s, closeBlobs, err := wiring.Blobs(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeBlobs() })
	return blob.Sealed{Store: s, Keys: kr}, bucket
}

// TestSealedOverCloudStorage: through wiring, a blob is ciphertext in the bucket,
// reads back whole under its own key, does not open when copied under another case's
// key or once its case's key is destroyed, and an object stored before sealing reads
// as it is.
func TestSealedOverCloudStorage(t *testing.T) {
	_, kr := openMongo(t)
	s, bucket := wiredBlobs(t, kr, false)
	blobtest.Sealing(t, s.(blob.Sealed), kr, func(key string) ([]byte, error) {
		o, err := server.GetObject(bucket, key)
		return o.Content, err
	})
}

// TestErasureDeletesACaseFromCloudStorage: a case's drafts, rendered by the
// generate_draft_pdf activity into a versioned bucket, and an overwritten document
// are deleted by the erasure's activities, every generation of them, and counted;
// the case's key is destroyed, and another case's draft stays.
func TestErasureDeletesACaseFromCloudStorage(t *testing.T) {
	ctx := t.Context()
	st, kr := openMongo(t)
	s, bucket := wiredBlobs(t, kr, true)
	drafts := &activities.Drafts{Cases: st, Parties: st, Blobs: s}
	var ids []string
	for range 2 {
		id := uuid.NewString()
		if _, err := st.CreateCase(ctx, store.Case{ID: id, UserID: "u", Phase: schemas.PhaseActive, Status: schemas.StatusOpen,
			Details: store.NewDetails("d")}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddParty(ctx, store.Party{CaseID: id, FirstName: "Ion", LastName: "Popescu", CNP: "1800101123456"}); err != nil {
			t.Fatal(err)
		}
		for rev := 1; rev <= 2; rev++ {
			args := schemas.GenerateDraftPDFArgs{CaseID: id, DraftName: "Cerere", Revision: rev,
				MarkdownContent: fmt.Sprintf("# Cerere\n\nReclamant: **{{party0.fullName}}**, CNP {{party0.cnp}}. Revizia %d.", rev)}
			if got, err := drafts.RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: args}); err != nil || got.ErrorMessage != "" {
				t.Fatalf("render: %+v, %v", got, err)
			}
		}
		ids = append(ids, id)
	}
	erased, other := ids[0], ids[1]
	doc := schemas.DocumentBlob(erased, "d1", schemas.DocOriginal)
	for _, text := range []string{"contract v1", "contract v2"} {
		if err := s.Put(ctx, doc, []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	folder := schemas.CaseBlobPrefix(erased)
	if got := generations(t, bucket, folder); len(got) != 4 {
		t.Fatalf("before: %q; want two drafts and two generations of the document", got)
	}
	for _, o := range generations(t, bucket, folder) {
		name, _, _ := strings.Cut(o, "#")
		if obj, err := server.GetObject(bucket, name); err != nil || bytes.Contains(obj.Content, []byte("1800101123456")) {
			t.Errorf("%s holds the party's CNP in clear (%v)", name, err)
		}
	}

	e := &activities.Erasure{Store: st, Notifications: st, Blobs: s, Keys: kr, Facts: st, Cases: st, Parties: st}
	got, err := e.EraseCaseData(ctx, erased)
	if err != nil {
		t.Fatal(err)
	}
	if got.Blobs != 3 || got.Cases != 1 || got.Parties != 1 {
		t.Errorf("erased %+v; want 3 blobs, the case and its party", got)
	}
	if _, err := e.DestroyCaseKey(ctx, erased); err != nil {
		t.Fatal(err)
	}
	if left := generations(t, bucket, folder); len(left) != 0 {
		t.Errorf("left in the bucket: %q", left)
	}
	if _, err := s.Open(ctx, schemas.DraftPath(erased, "Cerere", 1)); !errors.Is(err, blob.ErrNotExist) {
		t.Errorf("an erased draft: %v, want ErrNotExist", err)
	}
	if err := s.Put(ctx, schemas.DraftPath(erased, "Cerere", 3), []byte("%PDF")); !errors.Is(err, keys.ErrDestroyed) {
		t.Errorf("a draft was stored for the erased case: %v", err)
	}
	if pdf := blobtest.Read(t, s, schemas.DraftPath(other, "Cerere", 2)); !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("the other case's draft reads %.20q", pdf)
	}
}

// TestFakeServerStaysInThisTest: of the module's packages and their tests, only this
// package's test binary links fake-gcs-server, so that no other package's -race
// build compiles it and what it brings.
func TestFakeServerStaysInThisTest(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "list", "-test", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "github.com/lexflow/lexflow/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var linking []string
	for line := range strings.Lines(string(out)) {
		pkg, deps, _ := strings.Cut(line, " ")
		if strings.Contains(" "+deps, " github.com/fsouza/fake-gcs-server/") && !strings.HasPrefix(pkg, "github.com/lexflow/lexflow/internal/blob/gcsblob") {
			linking = append(linking, pkg)
		}
	}
	if len(linking) != 0 {
		t.Errorf("packages linking fake-gcs-server: %q", linking)
	}
	if !strings.Contains(string(out), "github.com/fsouza/fake-gcs-server/fakestorage") {
		t.Error("go list does not show this package's own use of fake-gcs-server: the check reads the wrong list")
	}
}
