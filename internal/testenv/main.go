// Package testenv is the tests' and benches' harness on one machine, beside what
// `lexflow dev` runs (package devenv): an OpenID Provider (panva's oidc-provider on
// node), Stripe's stripe-mock, a PostgreSQL of a test's own and a Temporal cluster on
// it, test packages' own FerretDB or Firestore emulator, and a process's CPU time.
package testenv

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/lexflow/lexflow/internal/devenv"
)

// MainWithFerretDB runs a test package's tests against a FerretDB of their own in a
// temporary directory, setting *uri to its address first, and returns the exit code:
// func TestMain(m *testing.M) { os.Exit(testenv.MainWithFerretDB(m.Run, &uri)) }.
func MainWithFerretDB(run func() int, uri *string) int {
	dir, err := os.MkdirTemp("", "lexflow-ferretdb-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	f, err := devenv.StartFerretDB(context.Background(), "127.0.0.1:0", dir, slog.New(slog.DiscardHandler))
	if err != nil {
		panic(err)
	}
	defer f.Stop()
	*uri = f.URI
	return run()
}

// MainWithFirestore runs a test package's tests against a Firestore emulator of their
// own, with FIRESTORE_EMULATOR_HOST set to it, and returns the exit code:
// func TestMain(m *testing.M) { os.Exit(testenv.MainWithFirestore(m.Run)) }.
func MainWithFirestore(run func() int) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := devenv.StartFirestore(ctx, 0, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Stop()
	if err := os.Setenv("FIRESTORE_EMULATOR_HOST", f.Host); err != nil {
		panic(err)
	}
	return run()
}
