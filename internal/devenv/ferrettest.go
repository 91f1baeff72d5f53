package devenv

import (
	"context"
	"log/slog"
	"os"
)

// MainWithFerretDB runs a test package's tests against a FerretDB of their own in a
// temporary directory, setting *uri to its address first, and returns the exit code:
// func TestMain(m *testing.M) { os.Exit(devenv.MainWithFerretDB(m.Run, &uri)) }.
func MainWithFerretDB(run func() int, uri *string) int {
	dir, err := os.MkdirTemp("", "lexflow-ferretdb-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	f, err := StartFerretDB(context.Background(), "127.0.0.1:0", dir, slog.New(slog.DiscardHandler))
	if err != nil {
		panic(err)
	}
	defer f.Stop()
	*uri = f.URI
	return run()
}
