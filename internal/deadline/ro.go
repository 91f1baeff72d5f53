package deadline

import "time"

// articlesRO are the articles Romania's rules come from, in each code: the Code of
// Civil Procedure (Legea nr. 134/2010, republished; art. 181–183) or the Civil Code
// (Legea nr. 287/2009; art. 2551–2556, which art. 2551 makes the rule for every term
// no other law counts otherwise).
type articlesRO struct {
	days, periods, prorogation, end string
}

var roArticles = map[string]articlesRO{
	CodeCPC: {
		days:        "art. 181 alin. (1) pct. 2 C.proc.civ.",
		periods:     "art. 181 alin. (1) pct. 3 C.proc.civ.",
		prorogation: "art. 181 alin. (2) C.proc.civ.",
		end:         "art. 182–183 C.proc.civ.",
	},
	CodeCC: {
		days:        "art. 2553 alin. (1) C.civ.",
		periods:     "art. 2552 alin. (1)–(2) C.civ.",
		prorogation: "art. 2554 C.civ.",
		end:         "art. 2553 alin. (2)–(3), art. 2556 C.civ.",
	},
}

// roEnd is what the end rule says of the last day, in each code.
var roEnd = map[string]string{
	CodeCPC: "The term ends at 24:00 of %s, Europe/Bucharest time (art. 182 alin. (1)). An act filed in person at the court or another place must be filed before that office's hours end that day (art. 182 alin. (2)); one sent by registered post, courier or a specialised communication service is in time if handed in before the term ends (art. 183).",
	CodeCC:  "The term ends at 24:00 of %s, Europe/Bucharest time (art. 2553 alin. (2)); an act to be done at a workplace, when its normal working hours end (alin. (3)); an act posted by then, before the post office closes, is in time (art. 2556).",
}

// weekendRO: Saturday and Sunday are the weekly rest days (art. 137 Codul muncii),
// hence not working days for art. 181 alin. (2) C.proc.civ. and art. 2554 C.civ.
var weekendRO = map[time.Weekday]string{
	time.Saturday: "Saturday (sâmbătă), a weekly rest day (art. 137 Codul muncii)",
	time.Sunday:   "Sunday (duminică), a weekly rest day (art. 137 Codul muncii)",
}

// computeRO computes a term by Romania's rules: days are free days (neither the first
// nor the last counts); weeks, months and years end on the corresponding day, or on
// the month's last day when it has none; a last day that is not a working day moves to
// the next working day, or, for a term counted backward, to the previous one.
func computeRO(t term) computation {
	art := roArticles[t.code]
	sign, way, to := 1, "after", "to"
	if t.backward {
		sign, way, to = -1, "before", "back to"
	}
	var c computation
	switch t.unit {
	case Days:
		c.due = addDays(t.from, sign*(t.amount+1))
		first, last := addDays(t.from, sign), addDays(t.from, sign*t.amount)
		c.apply("ro.days.free", art.days,
			"A term in days counts free days (zile libere): neither %s, the day it runs from, nor the day it is fulfilled counts. The %s %s it are %s %s %s, so the term is fulfilled on %s.",
			day(t.from), count(t.amount, Days), way, day(first), to, day(last), day(c.due))
	case Weeks:
		c.due = addDays(t.from, sign*7*t.amount)
		c.apply("ro.weeks", art.periods, "A term of %s ends on the corresponding day of the last week: %s (%s).", count(t.amount, Weeks), day(c.due), c.due.Weekday())
	default:
		months := t.amount
		if t.unit == Years {
			months *= 12
		}
		due, lacked := addMonths(t.from, sign*months)
		c.due = due
		if lacked {
			c.apply("ro.months.last-day", art.periods, "A term of %s ends on the corresponding day of the last month; %s has no day %d, so it ends on that month's last day, %s.",
				count(t.amount, t.unit), due.Format("January 2006"), t.from.Day(), day(due))
		} else {
			c.apply("ro.months", art.periods, "A term of %s ends on the corresponding day of the last month: %s.", count(t.amount, t.unit), day(due))
		}
	}
	w := newWorkweek(HolidaysRO, weekendRO)
	if t.backward {
		if moved := c.moveToWorkingDay(w, -1); moved != "" {
			c.apply("ro.backward.earlier", art.prorogation+", for a term counted backward",
				"%s is not a working day. A term counted back from a later day guarantees a whole interval before it; moving its last day later would shorten that interval, so it moves to the previous working day, %s.", moved, day(c.due))
		}
	} else if moved := c.moveToWorkingDay(w, 1); moved != "" {
		c.apply("ro.prorogation", art.prorogation, "%s is not a working day, so the term runs on to the end of the next working day, %s.", moved, day(c.due))
	}
	c.apply("ro.end", art.end, roEnd[t.code], day(c.due))
	return c
}
