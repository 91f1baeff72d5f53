package devenv

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strconv"
)

// FirestoreEmulatorVersion is the npm package @firestore-emulator/server that
// `make test` installs into NPMDir.
const FirestoreEmulatorVersion = "0.3.15"

//go:embed firestore-emulator.mjs
var firestoreEmulatorScript []byte

// Firestore is a running Firestore emulator (@firestore-emulator/server on node): a
// gRPC Firestore on loopback that keeps its data in memory, for as long as it runs.
type Firestore struct {
	// Host is its address, what FIRESTORE_EMULATOR_HOST names.
	Host string
	p    *process
}

// StartFirestore starts the emulator on a loopback port (0: a free one) and returns
// once it serves, or fails when ctx ends first.
func StartFirestore(ctx context.Context, port int) (*Firestore, error) {
	if port == 0 {
		var err error
		if port, err = FreePort(); err != nil {
			return nil, err
		}
	}
	p, err := startNode(ctx, "firestore-emulator", firestoreEmulatorScript, "@firestore-emulator/server",
		fmt.Sprintf("`make npm` installs it (npm install --prefix %s @firestore-emulator/server@%s)", NPMDir, FirestoreEmulatorVersion),
		"PORT="+strconv.Itoa(port))
	if err != nil {
		return nil, err
	}
	return &Firestore{Host: fmt.Sprintf("127.0.0.1:%d", port), p: p}, nil
}

// Stop ends the emulator, and with it everything stored in it.
func (f *Firestore) Stop() { f.p.kill() }

// MainWithFirestore runs a test package's tests against a Firestore emulator of their
// own, with FIRESTORE_EMULATOR_HOST set to it, and returns the exit code:
// func TestMain(m *testing.M) { os.Exit(devenv.MainWithFirestore(m.Run)) }.
func MainWithFirestore(run func() int) int {
	f, err := StartFirestore(context.Background(), 0)
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
