package notify_test

import (
	"context"
	"slices"
	"testing"

	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/notify"
)

// events is a store whose AppendEvents keeps the events it is given that are not
// already in the log (none when the ID is "dup").
type events struct{ store.Store }

func (events) AppendEvents(_ context.Context, _ string, es ...store.Event) ([]store.Event, error) {
	return slices.DeleteFunc(es, func(e store.Event) bool { return e.ID == "dup" }), nil
}

type told []string

func (t *told) Notify(caseID string) { *t = append(*t, caseID) }

func TestNotifiesAfterAnAppend(t *testing.T) {
	var hub told
	st := notify.Store{Store: events{}, Hub: &hub}
	for _, id := range []string{"new", "dup"} {
		if _, err := st.AppendEvents(t.Context(), "case-1", store.Event{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(hub, []string{"case-1"}) {
		t.Errorf("told %v; want case-1 once, for the append that added an event", hub)
	}
	if _, err := (notify.Store{Store: events{}}).AppendEvents(t.Context(), "case-1", store.Event{ID: "new"}); err != nil {
		t.Errorf("no hub: %v", err)
	}
}
