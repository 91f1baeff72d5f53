package firestore_test

import (
	"os"
	"testing"

	"github.com/google/uuid"
	"google.golang.org/api/option"

	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/firestore"
	"github.com/lexflow/lexflow/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(testenv.MainWithFirestore(m.Run)) }

// open opens a store on a project of its own in the test's emulator.
func open(t *testing.T, opts ...option.ClientOption) *firestore.Store {
	t.Helper()
	s, err := firestore.Open(t.Context(), "lexflow-test-"+uuid.NewString()[:8], opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(t.Context()) })
	return s
}

// TestConformance runs the store conformance suite on the Firestore emulator, and
// checks that deploy/firestore's indexes serve every query it made.
func TestConformance(t *testing.T) {
	var log queryLog
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, log.option(t)) })
	checkIndexes(t, &log)
}
