// Package notify is a store that tells a notifier, such as the API's event hub
// (internal/eventhub), when a case's event log grows, so that an event stream in the
// same process is woken at once instead of at its next poll.
package notify

import (
	"context"

	"github.com/lexflow/lexflow/store"
)

// Notifier is told that a case's event log grew; *eventhub.Hub is one.
type Notifier interface {
	Notify(caseID string)
}

// Store is a store that tells Hub after each append to an event log; a nil Hub is
// told nothing.
type Store struct {
	store.Store
	Hub Notifier
}

// AppendEvents appends to the log, then tells Hub of the case.
func (n Store) AppendEvents(ctx context.Context, caseID string, events ...store.Event) ([]store.Event, error) {
	out, err := n.Store.AppendEvents(ctx, caseID, events...)
	if len(out) > 0 && n.Hub != nil {
		n.Hub.Notify(caseID)
	}
	return out, err
}
