// Package storetest is the conformance suite that every implementation of the store
// interfaces must pass: it states once, as tests, what the doc comments in package store
// promise, so that every store (MongoDB's and Firestore's) behaves the same.
//
// An implementation's tests call Run with a function that opens a store:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store { return open(t) })
//	}
package storetest

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/store"
)

// Run runs the suite as subtests of t, named after the interface and the promise they
// check ("Cases/CreateIsIdempotent"), so that `go test -run` picks one. It calls open
// once and runs every subtest on the store it returns; open registers the store's Close
// with t.Cleanup. Each subtest makes up its own IDs, so the store need not be empty and
// may be shared with other tests.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	s := open(t)
	groups := []struct {
		name  string
		tests []subtest
	}{
		{"Cases", caseTests},
		{"Transcripts", transcriptTests},
		{"Memories", memoryTests},
		{"Parties", partyTests},
		{"Subscriptions", subscriptionTests},
		{"Tickets", ticketTests},
		{"PromptVersions", promptVersionTests},
		{"Checkouts", checkoutTests},
		{"Audit", auditTests},
		{"Budgets", budgetTests},
		{"Events", eventTests},
		{"Keys", keyTests},
		{"Erasures", erasureTests},
		{"SourceFailures", sourceFailureTests},
		{"CourtFiles", courtFileTests},
		{"Deadlines", deadlineTests},
		{"Feeds", feedTests},
		{"Notifications", notificationTests},
		{"CurrentTexts", currentTextTests},
		{"Disclosures", disclosureTests},
		{"MemoryFacts", memoryFactTests},
		{"Sizes", sizeTests},
	}
	for _, g := range groups {
		for _, st := range g.tests {
			t.Run(g.name+"/"+st.name, func(t *testing.T) { st.run(t, s) })
		}
	}
	t.Run("Ping", func(t *testing.T) { testPing(t, s) })
}

// subtest is one promise of the interfaces, checked on a store.
type subtest struct {
	name string
	run  func(t *testing.T, s store.Store)
}

func testPing(t *testing.T, s store.Store) {
	if err := s.Ping(t.Context()); err != nil {
		t.Fatalf("Ping = %v, want nil", err)
	}
}

// newID returns an ID no other subtest uses, prefixed with what it names.
func newID(prefix string) string { return prefix + "-" + uuid.NewString() }

// timeSlack is how far a time a store returns may be from the one it was given: stores
// may keep milliseconds only.
const timeSlack = time.Millisecond

// sameTime reports whether a store kept the time want, to its precision.
func sameTime(got, want time.Time) bool {
	d := got.Sub(want)
	return -timeSlack < d && d < timeSlack
}

// clockSkew is how far the clock a store stamps times with may be from the test's.
const clockSkew = time.Minute

// recent reports whether a store stamped a time close to now.
func recent(got time.Time) bool {
	d := time.Since(got)
	return -clockSkew < d && d < clockSkew
}
