package activities

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestReadMornings: 08:00 of the last day in the zone each recipient set, and in the
// court's zone for one who set none; a court's zone that is none is bad input.
func TestReadMornings(t *testing.T) {
	a := &Notifications{Store: st}
	inNewYork := store.OwnerID("", "u-"+uuid.NewString()[:8])
	if _, err := st.UpdateNotificationSettings(t.Context(), inNewYork, func(ns *store.NotificationSettings) error {
		ns.TimeZone = "America/New_York"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	none := store.OwnerID("", "u-"+uuid.NewString()[:8])
	got, err := a.ReadMornings(t.Context(), schemas.ReadMornings{Due: "2026-03-17", Zone: "Europe/Bucharest", Owners: []string{inNewYork, none}})
	if err != nil {
		t.Fatal(err)
	}
	want := []schemas.Morning{
		{Owner: inNewYork, Zone: "America/New_York", At: time.Date(2026, 3, 17, 12, 0, 0, 0, time.UTC)},
		{Owner: none, Zone: "Europe/Bucharest", At: time.Date(2026, 3, 17, 6, 0, 0, 0, time.UTC)},
	}
	if len(got.Mornings) != len(want) {
		t.Fatalf("mornings %+v, want %+v", got.Mornings, want)
	}
	for i, m := range got.Mornings {
		if m.Owner != want[i].Owner || m.Zone != want[i].Zone || !m.At.Equal(want[i].At) {
			t.Errorf("morning %d = %+v, want %+v", i, m, want[i])
		}
	}
	if _, err := a.ReadMornings(t.Context(), schemas.ReadMornings{Due: "2026-03-17", Zone: "Mars/Olympus", Owners: []string{none}}); err == nil {
		t.Error("a court's zone that is none was read")
	}
}
