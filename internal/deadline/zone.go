package deadline

import (
	"fmt"
	"time"
)

// courtZones are the courts' time zones, in which a term's last day ends.
var courtZones = map[string]string{Romania: "Europe/Bucharest", Italy: "Europe/Rome"}

// courtZone is the jurisdiction's time zone. It needs the zone database: the lexflow
// binary embeds it (time/tzdata), so it loads wherever the binary runs.
func courtZone(jurisdiction string) (*time.Location, error) {
	loc, err := time.LoadLocation(courtZones[jurisdiction])
	if err != nil {
		return nil, fmt.Errorf("load time zone %s: %w", courtZones[jurisdiction], err)
	}
	return loc, nil
}

// endOfDay is 24:00 of day d in loc: midnight at the start of the next day, which
// time.Date places correctly across daylight-saving changes.
func endOfDay(d time.Time, loc *time.Location) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc)
}

// EndOf is a day set by hand (YYYY-MM-DD, within the years the rules cover) as a
// deadline: the instant it ends, 24:00 in the jurisdiction's court zone, and that
// zone's name.
func EndOf(jurisdiction, day string) (time.Time, string, error) {
	if jurisdiction != Romania && jurisdiction != Italy {
		return time.Time{}, "", Invalid("jurisdiction must be ro or it")
	}
	d, err := time.Parse(time.DateOnly, day)
	if err != nil || len(day) != len(time.DateOnly) {
		return time.Time{}, "", Invalid("due must be a date written YYYY-MM-DD")
	}
	if d.Before(firstDay) || d.After(lastDay) {
		return time.Time{}, "", Invalid(fmt.Sprintf("due must be a day of the years %d–%d", firstDay.Year(), lastDay.Year()))
	}
	zone, err := courtZone(jurisdiction)
	if err != nil {
		return time.Time{}, "", err
	}
	return endOfDay(d, zone), zone.String(), nil
}
