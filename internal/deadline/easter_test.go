package deadline

import (
	"testing"
	"time"
)

// TestEasters checks both computuses against the published dates of 2020–2035
// (the Gregorian Easter and the Orthodox Paștele, as the churches' calendars give
// them). 2024 shows why Romania must not use the Western date: Paștele was 5 May,
// Easter 31 March.
func TestEasters(t *testing.T) {
	western := []string{"2020-04-12", "2021-04-04", "2022-04-17", "2023-04-09", "2024-03-31", "2025-04-20",
		"2026-04-05", "2027-03-28", "2028-04-16", "2029-04-01", "2030-04-21", "2031-04-13", "2032-03-28",
		"2033-04-17", "2034-04-09", "2035-03-25"}
	orthodox := []string{"2020-04-19", "2021-05-02", "2022-04-24", "2023-04-16", "2024-05-05", "2025-04-20",
		"2026-04-12", "2027-05-02", "2028-04-16", "2029-04-08", "2030-04-28", "2031-04-13", "2032-05-02",
		"2033-04-24", "2034-04-09", "2035-04-29"}
	for i := range western {
		y := 2020 + i
		if got := day(westernEaster(y)); got != western[i] {
			t.Errorf("Western Easter %d = %s, want %s", y, got, western[i])
		}
		if got := day(orthodoxEaster(y)); got != orthodox[i] {
			t.Errorf("Orthodox Easter %d = %s, want %s", y, got, orthodox[i])
		}
		for _, e := range []time.Time{westernEaster(y), orthodoxEaster(y)} {
			if e.Weekday() != time.Sunday {
				t.Errorf("Easter %s is a %s", day(e), e.Weekday())
			}
		}
	}
}
