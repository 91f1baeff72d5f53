package deadline

import (
	"slices"
	"time"
)

// Holiday is a public holiday: its day, its name in the country's language and in
// English, and the law that makes it one.
type Holiday struct {
	Date time.Time
	Name string
	Law  string
}

// feast is a public holiday as data: a fixed day of the year, or an offset from
// Easter, in force from a year on.
type feast struct {
	month      time.Month
	day        int
	fromEaster int
	movable    bool
	name, law  string
	since      int
}

// fixed is a holiday on the same day every year.
func fixed(m time.Month, d int, name, law string, since int) feast {
	return feast{month: m, day: d, name: name, law: law, since: since}
}

// movable is a holiday days after (or, negative, before) Easter Sunday.
func movable(days int, name, law string, since int) feast {
	return feast{fromEaster: days, movable: true, name: name, law: law, since: since}
}

// holidaysOf is the year's holidays among feasts, with easter the year's Easter
// Sunday, in the order of the table.
func holidaysOf(feasts []feast, y int, easter time.Time) []Holiday {
	var out []Holiday
	for _, f := range feasts {
		if y < f.since {
			continue
		}
		d := date(y, f.month, f.day)
		if f.movable {
			d = addDays(easter, f.fromEaster)
		}
		out = append(out, Holiday{Date: d, Name: f.name, Law: f.law})
	}
	return out
}

// sorted sorts holidays by day, keeping the table's order within a day.
func sorted(hs []Holiday) []Holiday {
	slices.SortStableFunc(hs, func(a, b Holiday) int { return a.Date.Compare(b.Date) })
	return hs
}
