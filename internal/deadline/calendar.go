package deadline

import (
	"fmt"
	"strings"
	"time"
)

// Days are time.Time values at midnight UTC: civil dates with no zone, which only
// endOfDay places in a court's zone.

// day writes a date as YYYY-MM-DD.
func day(d time.Time) string { return d.Format(time.DateOnly) }

// date is the given day.
func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// addDays moves n days, back when n is negative.
func addDays(d time.Time, n int) time.Time { return d.AddDate(0, 0, n) }

// addMonths moves n months to the corresponding day, or to the last day of the month
// that has none (31 January + 1 month is 28 or 29 February): the rule of art. 181
// alin. (1) pct. 3 C.proc.civ., art. 2552 alin. (2) C.civ. and art. 2963 co. 4 c.c.
// It reports whether the month lacked the day.
func addMonths(d time.Time, n int) (time.Time, bool) {
	first := date(d.Year(), d.Month()+time.Month(n), 1)
	last := first.AddDate(0, 1, -1).Day()
	if d.Day() > last {
		return date(first.Year(), first.Month(), last), true
	}
	return date(first.Year(), first.Month(), d.Day()), false
}

// count writes n units for the reasoning: "1 day", "15 days".
func count(n int, unit string) string {
	if n == 1 {
		return "1 " + strings.TrimSuffix(unit, "s")
	}
	return fmt.Sprintf("%d %s", n, unit)
}
