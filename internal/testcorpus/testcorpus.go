// Package testcorpus gives tests the legal corpus database without each test binary
// building its own: under the race detector a build takes over three minutes on two
// cores, against 20 s without it. `make test` builds the corpus once with a plain
// binary and names it in LEXFLOW_TEST_CORPUS; without that variable, a test builds it
// into its own directory as before.
package testcorpus

import (
	"context"
	"os"
	"path/filepath"

	"github.com/lexflow/lexflow/corpus"
)

// Env names a corpus database that tests may share. Tests only read it.
const Env = "LEXFLOW_TEST_CORPUS"

// Path returns a corpus database built from the shipped archive: the one Env names
// (built there first if it is missing or stale), or else one built into dir.
func Path(ctx context.Context, dir string) (string, error) {
	path := os.Getenv(Env)
	if path == "" {
		path = filepath.Join(dir, "corpus.db")
	}
	_, _, err := corpus.Ensure(ctx, path)
	return path, err
}
