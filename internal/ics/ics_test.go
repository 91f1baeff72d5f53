package ics

import (
	"strings"
	"testing"
	"time"
)

// unfold reads RFC 5545 text back into content lines, checking that every line ends
// in CRLF and is at most 75 octets.
func unfold(t *testing.T, text string) []string {
	t.Helper()
	if !strings.HasSuffix(text, "\r\n") {
		t.Fatalf("text does not end in CRLF")
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\r\n"), "\r\n") {
		if strings.Contains(l, "\n") || strings.Contains(l, "\r") {
			t.Errorf("a bare line break in %q", l)
		}
		if len(l) > maxLine {
			t.Errorf("line of %d octets: %q", len(l), l)
		}
		if strings.HasPrefix(l, " ") {
			out[len(out)-1] += l[1:]
			continue
		}
		out = append(out, l)
	}
	return out
}

func TestWriteFoldsEscapesAndAlarms(t *testing.T) {
	summary := "Termen, apel; ș" + strings.Repeat("ț", 60) + "\\ end\nline"
	text := Write("Lexflow", []Event{{UID: "dl-1@lexflow", Stamp: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC),
		Day: time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC), Summary: summary,
		Alarms: []Alarm{{Before: 48 * time.Hour}, {At: 8 * time.Hour}}}})
	lines := unfold(t, text)
	want := []string{"BEGIN:VCALENDAR", "VERSION:2.0", "UID:dl-1@lexflow", "DTSTAMP:20260302T100000Z",
		"DTSTART;VALUE=DATE:20260402", "DTEND;VALUE=DATE:20260403", "SUMMARY:" + Escape(summary),
		"TRIGGER;RELATED=END:-PT172800S", "TRIGGER;RELATED=START:PT28800S", "END:VCALENDAR"}
	for _, w := range want {
		found := false
		for _, l := range lines {
			found = found || l == w
		}
		if !found {
			t.Errorf("no line %q in %q", w, lines)
		}
	}
	if Escape(summary) != `Termen\, apel\; ș`+strings.Repeat("ț", 60)+`\\ end\nline` {
		t.Errorf("escaped %q", Escape(summary))
	}
	for _, l := range strings.Split(text, "\r\n") {
		if !utf8Valid(l) {
			t.Errorf("a fold split a character: %q", l)
		}
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
