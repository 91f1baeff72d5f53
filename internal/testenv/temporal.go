package testenv

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/devenv"
)

// Temporal starts a Temporal dev server of t's own, from ./bin/temporal, on a database
// in t's temporary directory, and stops it when t ends.
func Temporal(t testing.TB) *devenv.TemporalServer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cli, err := devenv.FindTemporalCLI("bin/temporal")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := devenv.StartTemporal(ctx, devenv.TemporalOptions{CLI: cli, DBFile: filepath.Join(t.TempDir(), "temporal.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Stop)
	return ts
}
