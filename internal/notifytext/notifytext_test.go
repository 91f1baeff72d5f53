package notifytext_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/notifytext"
	"github.com/lexflow/lexflow/schemas"
)

// kinds are every kind of notification schemas names.
var kinds = []string{schemas.NotifyDeadlineReminder, schemas.NotifyDeadlineMissed, schemas.NotifyDeadlineProposed, schemas.NotifyCourtHearing}

// TestReminderInEachLanguage: a reminder two days before a deadline ending at 24:00
// in Bucharest reads, in each language, the case, the source, the day and "in 2 days".
func TestReminderInEachLanguage(t *testing.T) {
	buc, _ := time.LoadLocation("Europe/Bucharest")
	rome, _ := time.LoadLocation("Europe/Rome")
	due := time.Date(2026, 12, 4, 0, 0, 0, 0, buc) // the end of 3 December
	n := schemas.Notification{Key: "k", Kind: schemas.NotifyDeadlineReminder, CaseID: "c-42", Due: due,
		Params: map[string]string{schemas.ParamOffset: "48h0m0s", schemas.ParamSource: "court_order"}}
	for _, tc := range []struct {
		lang    string
		loc     *time.Location
		subject string
		body    []string
	}{
		{"ro", buc, "Termen peste 2 zile: cazul c-42", []string{"cazul c-42 (hotărâre a instanței) se împlinește peste 2 zile, pe 03.12.2026 24:00 (Europe/Bucharest)", "nu consultanță juridică"}},
		{"it", rome, "Scadenza tra 2 giorni: pratica c-42", []string{"pratica c-42 (provvedimento del giudice) scade tra 2 giorni, il 03/12/2026 23:00 (Europe/Rome)", "non una consulenza legale"}},
		{"en", buc, "Deadline in 2 days: case c-42", []string{"case c-42 (court order) falls due in 2 days, on 3 December 2026 24:00 (Europe/Bucharest)", "not legal advice"}},
	} {
		got, err := notifytext.Render(tc.lang, tc.loc, n)
		if err != nil {
			t.Fatalf("%s: %v", tc.lang, err)
		}
		if got.Subject != tc.subject {
			t.Errorf("%s subject = %q, want %q", tc.lang, got.Subject, tc.subject)
		}
		for _, want := range tc.body {
			if !strings.Contains(got.Body, want) {
				t.Errorf("%s body = %q, want it to hold %q", tc.lang, got.Body, want)
			}
		}
	}
}

// TestEveryKindInEveryLanguage: each kind has a subject and a body in each language,
// different across languages, naming the case.
func TestEveryKindInEveryLanguage(t *testing.T) {
	for _, kind := range kinds {
		seen := map[string]string{}
		for _, lang := range schemas.Languages {
			n := schemas.Notification{Kind: kind, CaseID: "c-7", Due: time.Date(2027, 1, 15, 9, 30, 0, 0, time.UTC),
				Params: map[string]string{schemas.ParamSource: "hearing", schemas.ParamHour: "09:30"}}
			got, err := notifytext.Render(lang, time.UTC, n)
			if err != nil {
				t.Fatalf("%s %s: %v", lang, kind, err)
			}
			if !strings.Contains(got.Subject, "c-7") || !strings.Contains(got.Body, "c-7") || strings.Contains(got.Body, "<no value>") {
				t.Errorf("%s %s = %+v, want the case named and every value filled", lang, kind, got)
			}
			if !strings.Contains(got.Body, "15") || !strings.Contains(got.Body, "09:30") {
				t.Errorf("%s %s body = %q, want the date", lang, kind, got.Body)
			}
			if other, ok := seen[got.Subject]; ok {
				t.Errorf("%s and %s share the subject %q", lang, other, got.Subject)
			}
			seen[got.Subject] = lang
		}
	}
}

// TestOffsets: each unit, singular and plural, and Romanian's "de" from twenty.
func TestOffsets(t *testing.T) {
	for _, tc := range []struct {
		lang, offset, want string
	}{
		{"ro", "24h", "peste o zi"},
		{"ro", "168h", "peste 7 zile"},
		{"ro", "480h", "peste 20 de zile"},
		{"ro", "2424h", "peste 101 zile"},
		{"ro", "15h", "peste 15 ore"},
		{"ro", "1m", "peste un minut"},
		{"ro", "30s", "peste 30 de secunde"},
		{"ro", "0s", "acum"},
		{"ro", "morning", "Termen astăzi"},
		{"it", "morning", "Scadenza oggi"},
		{"en", "morning", "Deadline today"},
		{"it", "1h", "tra 1 ora"},
		{"it", "90m", "tra 90 minuti"},
		{"en", "72h", "in 3 days"},
		{"en", "1s", "in 1 second"},
	} {
		got, err := notifytext.Render(tc.lang, time.UTC, schemas.Notification{Kind: schemas.NotifyDeadlineReminder, CaseID: "c",
			Due: time.Now(), Params: map[string]string{schemas.ParamOffset: tc.offset}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Subject, tc.want) {
			t.Errorf("%s offset %s: subject %q, want %q", tc.lang, tc.offset, got.Subject, tc.want)
		}
	}
}

// TestRefusesWhatItCannotWrite: an unknown language or kind, or a bad offset.
func TestRefusesWhatItCannotWrite(t *testing.T) {
	ok := schemas.Notification{Kind: schemas.NotifyDeadlineMissed, CaseID: "c", Due: time.Now()}
	bad := []struct {
		lang string
		n    schemas.Notification
	}{
		{"de", ok},
		{"ro", schemas.Notification{Kind: "deadline.other", CaseID: "c"}},
		{"ro", schemas.Notification{Kind: schemas.NotifyDeadlineReminder, CaseID: "c", Params: map[string]string{schemas.ParamOffset: "two days"}}},
	}
	for _, b := range bad {
		if _, err := notifytext.Render(b.lang, time.UTC, b.n); err == nil {
			t.Errorf("Render(%s, %+v) = nil error", b.lang, b.n)
		}
	}
}

// TestVerificationInEachLanguage: the code and its validity in each language.
func TestVerificationInEachLanguage(t *testing.T) {
	for lang, want := range map[string]string{"ro": "valabil 15 minute", "it": "valido per 15 minuti", "en": "valid for 15 minutes"} {
		got, err := notifytext.Verification(lang, "428193", 15*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Subject, "428193") || !strings.Contains(got.Body, "428193") || !strings.Contains(got.Body, want) {
			t.Errorf("%s: %+v, want the code and %q", lang, got, want)
		}
	}
	if _, err := notifytext.Verification("fr", "1", time.Minute); err == nil {
		t.Error("Verification in French = nil error")
	}
}

// TestCourtNewsInEachLanguage: a court file's news names the file, its court, what is
// new and the hearing's day and hour as the court gave them, never a party.
func TestCourtNewsInEachLanguage(t *testing.T) {
	n := schemas.Notification{Kind: schemas.NotifyCourtHearing, CaseID: "c-9", Due: time.Date(2027, 2, 3, 0, 0, 0, 0, time.UTC),
		Params: map[string]string{schemas.ParamNews: "solution", schemas.ParamFile: "1234/3/2026",
			schemas.ParamCourt: "TribunalulBUCURESTI", schemas.ParamDay: "2027-02-03", schemas.ParamHour: "09:00"}}
	for lang, want := range map[string]string{
		"ro": "Dosarul de la instanță 1234/3/2026 (TribunalulBUCURESTI), legat de cazul c-9, are o soluție: ședința din 03.02.2027, ora 09:00.",
		"it": "Il fascicolo del tribunale 1234/3/2026 (TribunalulBUCURESTI), collegato alla pratica c-9, ha una decisione: udienza del 03/02/2027, ore 09:00.",
		"en": "The court file 1234/3/2026 (TribunalulBUCURESTI), linked to case c-9, has a decision: the hearing of 3 February 2027, at 09:00.",
	} {
		got, err := notifytext.Render(lang, time.UTC, n)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got.Body, want) || !strings.Contains(got.Subject, "1234/3/2026") {
			t.Errorf("%s = %q / %q, want the body to begin %q", lang, got.Subject, got.Body, want)
		}
	}
}
