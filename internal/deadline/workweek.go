package deadline

import (
	"strings"
	"time"
)

// workweek tells a jurisdiction's working days from the others: its weekend days and
// its public holidays, year by year as they are asked for.
type workweek struct {
	// holidays lists a year's public holidays.
	holidays func(year int) []Holiday
	// weekend names each day of the week that is not a working day, with why.
	weekend map[time.Weekday]string
	// years holds the holidays of the years asked for so far, by day.
	years map[int]map[time.Time]string
}

func newWorkweek(holidays func(int) []Holiday, weekend map[time.Weekday]string) *workweek {
	return &workweek{holidays: holidays, weekend: weekend, years: map[int]map[time.Time]string{}}
}

// closed says why d is not a working day, or false when it is one. A day that is
// both a holiday and a weekend day is told by its holiday.
func (w *workweek) closed(d time.Time) (string, bool) {
	byDay, ok := w.years[d.Year()]
	if !ok {
		byDay = map[time.Time]string{}
		for _, h := range w.holidays(d.Year()) {
			reason := "public holiday: " + h.Name + " (" + h.Law + ")"
			if prev, ok := byDay[h.Date]; ok {
				reason = prev + "; " + strings.TrimPrefix(reason, "public holiday: ")
			}
			byDay[h.Date] = reason
		}
		w.years[d.Year()] = byDay
	}
	if reason, ok := byDay[d]; ok {
		return reason, true
	}
	reason, ok := w.weekend[d.Weekday()]
	return reason, ok
}

// moveToWorkingDay moves c.due over the days that are not working days, one step
// (1 forward, -1 backward) at a time, recording each day stepped over, and reports
// the first such day ("" when c.due was a working day).
func (c *computation) moveToWorkingDay(w *workweek, step int) string {
	first := ""
	for {
		reason, closed := w.closed(c.due)
		if !closed {
			return first
		}
		if first == "" {
			first = day(c.due)
		}
		c.skipped = append(c.skipped, Skipped{Date: day(c.due), Reason: reason})
		c.due = addDays(c.due, step)
	}
}
