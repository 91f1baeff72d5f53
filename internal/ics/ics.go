// Package ics writes iCalendar (RFC 5545) text: a calendar of all-day events with
// alarms, as the calendar feed of a user's deadlines serves it. Lines end in CRLF and
// are folded at 75 octets, never inside a UTF-8 character; text values are escaped.
package ics

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Event is one all-day event: it starts on Day and ends at the next day's start.
type Event struct {
	// UID names the event for good: a calendar updates the event of a UID it has.
	UID     string
	Stamp   time.Time
	Day     time.Time
	Summary string
	// Description is a longer text, if any.
	Description string
	Alarms      []Alarm
}

// Alarm is a VALARM: Before the event's end (24:00 of its day), or, when Before is 0,
// At after its start (08:00 for a morning).
type Alarm struct {
	Before time.Duration
	At     time.Duration
}

// Write returns the calendar of events, named name, as RFC 5545 text.
func Write(name string, events []Event) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(fold(s)) }
	line("BEGIN:VCALENDAR")
	line("VERSION:2.0")
	line("PRODID:-//Lexflow//Deadlines//EN")
	line("CALSCALE:GREGORIAN")
	line("METHOD:PUBLISH")
	line("X-WR-CALNAME:" + Escape(name))
	for _, e := range events {
		line("BEGIN:VEVENT")
		line("UID:" + Escape(e.UID))
		line("DTSTAMP:" + e.Stamp.UTC().Format("20060102T150405Z"))
		line("DTSTART;VALUE=DATE:" + e.Day.Format("20060102"))
		line("DTEND;VALUE=DATE:" + e.Day.AddDate(0, 0, 1).Format("20060102"))
		line("SUMMARY:" + Escape(e.Summary))
		if e.Description != "" {
			line("DESCRIPTION:" + Escape(e.Description))
		}
		line("TRANSP:TRANSPARENT")
		for _, a := range e.Alarms {
			line("BEGIN:VALARM")
			line("ACTION:DISPLAY")
			line("DESCRIPTION:" + Escape(e.Summary))
			if a.Before > 0 {
				line("TRIGGER;RELATED=END:-" + duration(a.Before))
			} else {
				line("TRIGGER;RELATED=START:" + duration(a.At))
			}
			line("END:VALARM")
		}
		line("END:VEVENT")
	}
	line("END:VCALENDAR")
	return b.String()
}

// Escape escapes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and
// newline.
func Escape(s string) string { return escaper.Replace(s) }

// escaper is Escape's replacer, built once.
var escaper = strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)

// duration is a positive DURATION value in seconds (RFC 5545 §3.3.6): "PT172800S".
func duration(d time.Duration) string {
	return fmt.Sprintf("PT%dS", int64(d/time.Second))
}

// maxLine is the longest line RFC 5545 §3.1 allows, in octets, without its CRLF.
const maxLine = 75

// fold ends a content line with CRLF, folding it into lines of at most maxLine octets,
// each continuation starting with a space, never splitting a UTF-8 character.
func fold(s string) string {
	var b strings.Builder
	limit := maxLine
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		limit = maxLine - 1 // the leading space counts
	}
	b.WriteString(s)
	b.WriteString("\r\n")
	return b.String()
}
