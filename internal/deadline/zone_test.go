package deadline

import (
	"errors"
	"testing"
	"time"
)

// TestEndsAtMidnightInTheCourtsZone: art. 182 alin. (1) C.proc.civ., "Termenul care
// se socotește pe zile, săptămâni, luni sau ani se împlinește la ora 24,00 a ultimei
// zile în care se poate îndeplini actul de procedură"; art. 2963 co. 2 c.c., "con lo
// spirare dell'ultimo istante del giorno finale". The instant follows each zone's
// summer and winter offsets.
func TestEndsAtMidnightInTheCourtsZone(t *testing.T) {
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{ro("2024-06-03", 30, Days), "2024-07-04T21:00:00Z"},  // EEST, UTC+3
		{ro("2024-01-11", 15, Days), "2024-01-29T22:00:00Z"},  // EET, UTC+2
		{it("2024-03-04", 30, Days), "2024-04-03T22:00:00Z"},  // CEST, UTC+2
		{it("2025-01-31", 1, Months), "2025-02-28T23:00:00Z"}, // CET, UTC+1
	} {
		a, err := Compute(tc.req)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.EndsAt.UTC().Format(time.RFC3339); got != tc.want {
			t.Errorf("%s %s ends at %s, want %s", tc.req.Jurisdiction, a.Due, got, tc.want)
		}
		if a.Zone != courtZones[tc.req.Jurisdiction] || a.EndsAt.Location().String() != a.Zone {
			t.Errorf("zone %s, instant in %s", a.Zone, a.EndsAt.Location())
		}
	}
}

// TestEndOfDayAcrossDaylightSaving: on the last Sunday of March and of October a day
// has 23 or 25 hours; 24:00 is still the next midnight.
func TestEndOfDayAcrossDaylightSaving(t *testing.T) {
	rome, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	for d, want := range map[string]string{
		"2024-03-31": "2024-03-31T22:00:00Z",
		"2024-10-27": "2024-10-27T23:00:00Z",
	} {
		day, _ := time.Parse(time.DateOnly, d)
		if got := endOfDay(day, rome).UTC().Format(time.RFC3339); got != want {
			t.Errorf("end of %s in Rome = %s, want %s", d, got, want)
		}
	}
}

// TestEndOfADaySetByHand: a day named by hand ends at 24:00 in its court's zone, as a
// computed one does; a bad day or jurisdiction is Invalid.
func TestEndOfADaySetByHand(t *testing.T) {
	at, zone, err := EndOf(Romania, "2024-07-04")
	if err != nil || at.UTC().Format(time.RFC3339) != "2024-07-04T21:00:00Z" || zone != "Europe/Bucharest" {
		t.Errorf("EndOf(ro, 2024-07-04) = %v, %s, %v", at, zone, err)
	}
	for _, bad := range [][2]string{{"fr", "2024-07-04"}, {Italy, "2024-7-4"}, {Italy, "2024-02-30"}, {Italy, "2100-01-01"}, {Romania, ""}} {
		var invalid Invalid
		if _, _, err := EndOf(bad[0], bad[1]); !errors.As(err, &invalid) {
			t.Errorf("EndOf(%s, %q) = %v, want Invalid", bad[0], bad[1], err)
		}
	}
}
