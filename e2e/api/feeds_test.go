package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

// feedLines GETs a feed's URL with no token and unfolds its RFC 5545 text, checking
// CRLF line ends and 75-octet lines.
func feedLines(t *testing.T, feedURL string) (int, []string) {
	t.Helper()
	u, err := url.Parse(feedURL)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Call(t, "GET", u.Path, "", nil)
	if r.Status != http.StatusOK {
		return r.Status, nil
	}
	text := string(r.Raw)
	if !strings.HasSuffix(text, "\r\n") {
		t.Fatalf("the feed does not end in CRLF: %q", text)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\r\n"), "\r\n") {
		if len(l) > 75 || strings.ContainsAny(l, "\r\n") {
			t.Errorf("bad line %q", l)
		}
		if strings.HasPrefix(l, " ") && len(lines) > 0 {
			lines[len(lines)-1] += l[1:]
			continue
		}
		lines = append(lines, l)
	}
	return r.Status, lines
}

// TestCalendarFeed: a user's feed, fetched with no token, parses as a calendar with
// one event per deadline (a stable UID, DTSTAMP, the all-day event of its last day,
// one alarm per reminder) under a neutral title; rotating the secret stops the old
// URL, and turning the feed off stops the new one.
func TestCalendarFeed(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "feed-lawyer")
	id := s.CreateCase(t, tok, "A case with a deadline in a calendar")
	body := deadlineBody("2030-03-04", "48h", "30s", "morning")
	body["title"] = "Apel împotriva lui Popescu"
	r := s.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	did := r.Body["deadline_id"].(string)
	feed := s.Call(t, "POST", "/v1/me/feed", tok, nil)
	first, _ := feed.Body["url"].(string)
	if feed.Status != http.StatusOK || !strings.HasSuffix(first, ".ics") {
		t.Fatalf("feed: %d %s", feed.Status, feed.Raw)
	}
	status, lines := feedLines(t, first)
	if status != http.StatusOK {
		t.Fatalf("GET feed: %d", status)
	}
	joined := strings.Join(lines, "\n")
	for _, want := range []string{"BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:" + did + "@lexflow", "DTSTART;VALUE=DATE:20300404",
		"DTEND;VALUE=DATE:20300405", "SUMMARY:Court order: case " + id + " (active)", "TRIGGER;RELATED=END:-PT172800S",
		"TRIGGER;RELATED=END:-PT30S", "TRIGGER;RELATED=START:PT28800S", "END:VCALENDAR"} {
		if !strings.Contains(joined+"\n", want+"\n") {
			t.Errorf("the feed has no line %q:\n%s", want, joined)
		}
	}
	if strings.Count(joined, "BEGIN:VALARM") != 3 || !strings.Contains(joined, "DTSTAMP:") {
		t.Errorf("alarms or DTSTAMP missing:\n%s", joined)
	}
	if strings.Contains(joined, "Popescu") || strings.Contains(joined, "Apel") {
		t.Errorf("the feed shows the user's title:\n%s", joined)
	}
	rotated := s.Call(t, "POST", "/v1/me/feed", tok, nil).Body["url"].(string)
	if status, _ := feedLines(t, first); status != http.StatusNotFound || rotated == first {
		t.Errorf("the rotated-out URL answers %d", status)
	}
	if status, _ := feedLines(t, rotated); status != http.StatusOK {
		t.Errorf("the new URL answers %d", status)
	}
	others := s.Call(t, "POST", "/v1/me/feed", s.Token(t, "feed-other"), nil).Body["url"].(string)
	if _, lines := feedLines(t, others); strings.Contains(strings.Join(lines, "\n"), did) {
		t.Error("another user's feed shows the deadline")
	}
	if d := s.Call(t, "DELETE", "/v1/me/feed", tok, nil); d.Status != http.StatusNoContent {
		t.Errorf("delete feed: %d", d.Status)
	}
	if status, _ := feedLines(t, rotated); status != http.StatusNotFound {
		t.Errorf("a feed turned off answers %d", status)
	}
	for _, forged := range []string{"/v1/feeds/x.ics", "/v1/feeds/" + strings.Repeat("A", 43) + ".ics", "/v1/feeds/" + strings.Repeat("A", 43)} {
		stack.WantProblem(t, s.Call(t, "GET", forged, "", nil), http.StatusNotFound, "not-found")
	}
}
