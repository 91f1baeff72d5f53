package activities

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
	"unicode/utf8"
)

// TestRunToolKeepsLargeResultsInTheBlobStore: a legal_sql result of megabytes stays in
// the activity: the blob store keeps it and the turn gets a bounded text and the key;
// a small result travels whole.
func TestRunToolKeepsLargeResultsInTheBlobStore(t *testing.T) {
	dir := t.TempDir()
	blobs, err := blob.NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := NewToolRunner(blobs, &Research{Corpus: lc})
	key := schemas.ToolResultKey("c1", 1, 1, schemas.ToolLegalSQL)
	out, err := r.RunTool(t.Context(), schemas.RunToolInput{Tool: schemas.ToolLegalSQL, ResultKey: key,
		Args: []byte(`{"query_string": "SELECT text || text || text || text AS t FROM legislatie ORDER BY length(text) DESC", "table_name": "legislatie"}`)})
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(key)))
	if out.Ref != key || err != nil || info.Size() < 2<<20 || utf8.RuneCountInString(out.Text) > tools.MaxShownChars || out.Failure != "" {
		t.Fatalf("large result: ref %q, text %d chars, failure %q; stored %v, %v", out.Ref, len(out.Text), out.Failure, info, err)
	}
	small := schemas.ToolResultKey("c1", 1, 2, schemas.ToolLegalSQL)
	out, err = r.RunTool(t.Context(), schemas.RunToolInput{Tool: schemas.ToolLegalSQL, ResultKey: small,
		Args: []byte(`{"query_string": "SELECT doc_id FROM legislatie LIMIT 2", "table_name": "legislatie"}`)})
	if err != nil || out.Ref != "" || out.Text == "" {
		t.Fatalf("small result: %+v, %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(small))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a small result was stored: %v", err)
	}
	if out.Raw != nil {
		t.Errorf("a call that did not ask for its raw result got it: %s", out.Raw)
	}
	out, err = r.RunTool(t.Context(), schemas.RunToolInput{Tool: schemas.ToolLegalSQL, ResultKey: small, Raw: true,
		Args: []byte(`{"query_string": "SELECT doc_id FROM legislatie LIMIT 2", "table_name": "legislatie"}`)})
	if err != nil || !strings.Contains(string(out.Raw), `"doc_id"`) || out.Ref != "" {
		t.Fatalf("small result asked raw: %+v, %v", out, err)
	}
	for _, bad := range []schemas.RunToolInput{
		{Tool: "no_such_tool", Args: []byte(`{}`), ResultKey: key},
		{Tool: schemas.ToolGenerateDraftPDF, Args: []byte(`{}`), ResultKey: key}, // a child workflow runs it
		{Tool: schemas.ToolLegalSQL, Args: []byte(`[]`), ResultKey: key},
	} {
		var appErr *temporal.ApplicationError
		if _, err := r.RunTool(t.Context(), bad); !errors.As(err, &appErr) || !appErr.NonRetryable() {
			t.Errorf("RunTool(%s %s) = %v, want a non-retryable error", bad.Tool, bad.Args, err)
		}
	}
}
