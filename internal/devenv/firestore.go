package devenv

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"

	"github.com/lexflow/lexflow/internal/childproc"
)

// FirestoreEmulatorVersion is the npm package @firestore-emulator/server that
// `make test` installs into childproc.NPMDir.
const FirestoreEmulatorVersion = "0.3.15"

//go:embed firestore-emulator.mjs
var firestoreEmulatorScript []byte

// Firestore is a running Firestore emulator (@firestore-emulator/server on node): a
// gRPC Firestore on loopback that keeps its data in memory, for as long as it runs.
type Firestore struct {
	// Host is its address, what FIRESTORE_EMULATOR_HOST names.
	Host string
	// DocumentsURL, when the emulator was started with a dump port, answers GET with
	// every document it holds, as a JSON list of {"path", "fields"}.
	DocumentsURL string
	p            *childproc.Process
}

// StartFirestore starts the emulator on a loopback port (0: a free one), with its
// documents dump on dumpPort (0: none), and returns once it serves, or fails when ctx
// ends first.
func StartFirestore(ctx context.Context, port, dumpPort int) (*Firestore, error) {
	if port == 0 {
		var err error
		if port, err = childproc.FreePort(); err != nil {
			return nil, err
		}
	}
	env := []string{"PORT=" + strconv.Itoa(port)}
	f := &Firestore{Host: fmt.Sprintf("127.0.0.1:%d", port)}
	if dumpPort != 0 {
		env = append(env, "DUMP_PORT="+strconv.Itoa(dumpPort))
		f.DocumentsURL = fmt.Sprintf("http://127.0.0.1:%d/documents", dumpPort)
	}
	p, err := childproc.StartNode(ctx, "firestore-emulator", firestoreEmulatorScript, "@firestore-emulator/server",
		fmt.Sprintf("`make npm` installs it (npm install --prefix %s @firestore-emulator/server@%s)", childproc.NPMDir, FirestoreEmulatorVersion), env...)
	if err != nil {
		return nil, err
	}
	f.p = p
	return f, nil
}

// Stop ends the emulator, and with it everything stored in it.
func (f *Firestore) Stop() { f.p.Kill() }
