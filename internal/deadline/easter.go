package deadline

import "time"

// westernEaster is Easter Sunday by the Gregorian computus, which Italy's Easter
// Monday follows: the anonymous Gregorian algorithm (Meeus, Astronomical Algorithms,
// ch. 8), valid for every Gregorian year.
func westernEaster(y int) time.Time {
	a, b, c := y%19, y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	n := h + l - 7*m + 114
	return date(y, time.Month(n/31), n%31+1)
}

// orthodoxEaster is Easter Sunday of the Romanian Orthodox Church, which Romania's
// public holidays follow: the Julian computus (Meeus, Astronomical Algorithms, ch. 8)
// gives a Julian calendar date, 13 days behind the Gregorian one from 1 March 1900 to
// 28 February 2100, the years this package covers.
func orthodoxEaster(y int) time.Time {
	a, b, c := y%4, y%7, y%19
	d := (19*c + 15) % 30
	e := (2*a + 4*b - d + 34) % 7
	n := d + e + 114
	julian := date(y, time.Month(n/31), n%31+1)
	return addDays(julian, 13)
}
