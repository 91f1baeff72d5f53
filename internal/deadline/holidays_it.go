package deadline

import "time"

// l260 is where Italy's public holidays are listed.
const l260 = "art. 2 L. 260/1949"

// feastsIT are Italy's national public holidays ("giorni festivi", art. 2 L. 27 maggio
// 1949 n. 260 as amended by L. 54/1977, D.P.R. 792/1985 and L. 336/2000; the national
// day, 2 June, by art. 1), each from the year it applies. Sundays are holidays too,
// and are told apart by the calendar. A city's patron saint's day is a holiday there
// only, and is not in this table (see docs/deadlines.md).
var feastsIT = []feast{
	fixed(time.January, 1, "Capodanno (New Year's Day)", l260, 0),
	fixed(time.January, 6, "Epifania (Epiphany)", l260, 0),
	movable(0, "Pasqua (Easter Sunday)", l260, 0),
	movable(1, "Lunedì dell'Angelo (Easter Monday)", l260, 0),
	fixed(time.April, 25, "Anniversario della Liberazione (Liberation Day)", l260, 0),
	fixed(time.May, 1, "Festa del Lavoro (Labour Day)", l260, 0),
	fixed(time.June, 2, "Festa della Repubblica (Republic Day)", "art. 1 L. 260/1949, L. 336/2000", 0),
	fixed(time.August, 15, "Assunzione di Maria (Assumption, Ferragosto)", l260, 0),
	fixed(time.October, 4, "San Francesco d'Assisi, patrono d'Italia (St Francis)", l260+", added by L. 151/2025 from 1 January 2026", 2026),
	fixed(time.November, 1, "Ognissanti (All Saints' Day)", l260, 0),
	fixed(time.December, 8, "Immacolata Concezione (Immaculate Conception)", l260, 0),
	fixed(time.December, 25, "Natale (Christmas Day)", l260, 0),
	fixed(time.December, 26, "Santo Stefano (St Stephen's Day)", l260, 0),
}

// HolidaysIT is Italy's national public holidays in year y, sorted by day; Sundays
// other than Easter are not listed.
func HolidaysIT(y int) []Holiday {
	return sorted(holidaysOf(feastsIT, y, westernEaster(y)))
}
