package deadline

import (
	"fmt"
	"time"
)

// firstDay and lastDay bound the days a term may start from and end on. Before 2015
// Italy's August suspension ran to 15 September (D.L. 132/2014 shortened it), which
// these rules do not model; past 2099 the Julian-to-Gregorian offset of Orthodox
// Easter changes (see orthodoxEaster).
var (
	firstDay = time.Date(2015, time.January, 1, 0, 0, 0, 0, time.UTC)
	lastDay  = time.Date(2099, time.December, 31, 0, 0, 0, 0, time.UTC)
)

// maxAmount is the longest term in each unit: 100 years. Anything longer is no
// procedural time limit, and bounds the day-by-day counts.
var maxAmount = map[string]int{Days: 36525, Weeks: 5218, Months: 1200, Years: 100}

// term is a request checked and parsed.
type term struct {
	jurisdiction string
	from         time.Time
	amount       int
	unit         string
	backward     bool
	code         string
	// suspension is whether Italy's August suspension applies.
	suspension bool
}

// parse checks a request and fills its defaults.
func parse(req Request) (term, error) {
	t := term{jurisdiction: req.Jurisdiction, amount: req.Amount, unit: req.Unit, code: req.Code}
	if t.jurisdiction != Romania && t.jurisdiction != Italy {
		return term{}, Invalid("jurisdiction must be ro or it")
	}
	from, err := parseDay(req.From)
	if err != nil {
		return term{}, err
	}
	t.from = from
	most, ok := maxAmount[t.unit]
	if !ok {
		return term{}, Invalid("unit must be days, weeks, months or years")
	}
	if t.amount < 1 || t.amount > most {
		return term{}, Invalid(fmt.Sprintf("amount must be a whole number of %s from 1 to %d (100 years)", t.unit, most))
	}
	switch req.Direction {
	case "", Forward:
	case Backward:
		t.backward = true
	default:
		return term{}, Invalid("direction must be forward or backward")
	}
	switch t.code {
	case "":
		t.code = CodeCPC
	case CodeCPC, CodeCC:
	default:
		return term{}, Invalid("code must be cpc or cc")
	}
	suspended := t.jurisdiction == Italy && t.code == CodeCPC
	switch {
	case req.Suspension == nil:
		t.suspension = suspended
	case *req.Suspension && !suspended:
		return term{}, Invalid("the August suspension (L. 742/1969) applies only to Italian procedural time limits: jurisdiction it, code cpc")
	default:
		t.suspension = *req.Suspension
	}
	return t, nil
}

// parseDay reads a YYYY-MM-DD day within the years covered.
func parseDay(s string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil || len(s) != len(time.DateOnly) {
		return time.Time{}, Invalid("from must be a date written YYYY-MM-DD")
	}
	if d.Before(firstDay) || d.After(lastDay) {
		return time.Time{}, Invalid(fmt.Sprintf("from must be a day of the years %d–%d", firstDay.Year(), lastDay.Year()))
	}
	return d, nil
}
