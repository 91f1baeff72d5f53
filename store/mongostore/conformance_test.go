package mongostore_test

import (
	"testing"

	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/storetest"
)

// TestConformance runs the store conformance suite on the embedded FerretDB.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t) })
}
