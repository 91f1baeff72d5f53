// Package notifytext writes a notification's subject and body in the user's language
// from templates kept as data (texts.json): which case, the deadline's kind of source,
// its date in the user's time zone and how far off it is. The texts name no party.
package notifytext

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

//go:embed texts.json
var textsJSON []byte

// language is one language's texts.
type language struct {
	Kinds map[string]struct{ Subject, Body string } `json:"kinds"`
	// Verify is the mail that carries an address's verification code.
	Verify  struct{ Subject, Body string } `json:"verify"`
	Footer  string                         `json:"footer"`
	Sources map[string]string              `json:"sources"`
	// Date is the Go layout of a date and time, Day of a date.
	Date string `json:"date"`
	Day  string `json:"day"`
	// News names what is new in a court file, by schemas.ParamNews ("other" for the rest).
	News map[string]string `json:"news"`
	// Today is the morning reminder's offset.
	Today string `json:"today"`
	// Now is an offset of zero; In wraps a positive one ("in {{.}}").
	Now string `json:"now"`
	In  string `json:"in"`
	// Units are each unit's forms: "one", "other" and, where the language has it,
	// "many" (Romanian's "de" form), each with %d for the number.
	Units map[string]map[string]string `json:"units"`
}

// texts are the texts by language, parsed at start.
var texts = func() map[string]language {
	var out map[string]language
	if err := json.Unmarshal(textsJSON, &out); err != nil {
		panic("notifytext: texts.json: " + err.Error())
	}
	return out
}()

// Text is a notification as a person reads it.
type Text struct {
	Subject string
	// Body ends with the footer that says the message is automatic and not legal
	// advice.
	Body string
}

// values are what the templates name.
type values struct {
	Case, Source, Due, Zone, Offset string
	// News, File, Court, Day and Hour are a court file's news.
	News, File, Court, Day, Hour string
}

// Render writes n in lang (ro, it or en), with times in loc. A kind or language
// without texts, or an offset that is not a duration, is an error.
func Render(lang string, loc *time.Location, n schemas.Notification) (Text, error) {
	l, ok := texts[lang]
	if !ok {
		return Text{}, fmt.Errorf("no notification texts in %q", lang)
	}
	k, ok := l.Kinds[n.Kind]
	if !ok {
		return Text{}, fmt.Errorf("no notification texts for kind %q", n.Kind)
	}
	v := values{Case: n.CaseID, Source: l.Sources[n.Params[schemas.ParamSource]], Zone: loc.String()}
	if !n.Due.IsZero() {
		v.Due = formatDue(n.Due.In(loc), l.Date)
	}
	v.News, v.File, v.Court, v.Hour = l.News[n.Params[schemas.ParamNews]], n.Params[schemas.ParamFile], n.Params[schemas.ParamCourt], n.Params[schemas.ParamHour]
	if v.News == "" {
		v.News = l.News["other"]
	}
	if d, err := time.Parse(time.DateOnly, n.Params[schemas.ParamDay]); err == nil {
		v.Day = d.Format(l.Day)
	} else if !n.Due.IsZero() {
		v.Day = n.Due.In(loc).Format(l.Day)
	}
	if s, ok := n.Params[schemas.ParamOffset]; ok && s == schemas.ReminderMorning {
		v.Offset = l.Today
	} else if ok {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return Text{}, fmt.Errorf("offset %q is not a duration", s)
		}
		if v.Offset, err = l.offset(d); err != nil {
			return Text{}, err
		}
	}
	subject, err := execute(k.Subject, v)
	if err != nil {
		return Text{}, err
	}
	body, err := execute(k.Body, v)
	if err != nil {
		return Text{}, err
	}
	return Text{Subject: subject, Body: body + "\n\n" + l.Footer + "\n"}, nil
}

// Verification writes, in lang, the mail that carries a verification code valid for
// ttl.
func Verification(lang, code string, ttl time.Duration) (Text, error) {
	l, ok := texts[lang]
	if !ok {
		return Text{}, fmt.Errorf("no notification texts in %q", lang)
	}
	v := struct {
		Code    string
		Minutes int
	}{code, int(ttl / time.Minute)}
	subject, err := execute(l.Verify.Subject, v)
	if err != nil {
		return Text{}, err
	}
	body, err := execute(l.Verify.Body, v)
	if err != nil {
		return Text{}, err
	}
	return Text{Subject: subject, Body: body + "\n\n" + l.Footer + "\n"}, nil
}

// formatDue writes t by layout; a time at midnight is the end of the day before
// ("24:00"), as a deadline's end is written.
func formatDue(t time.Time, layout string) string {
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return strings.Replace(t.Add(-time.Minute).Format(layout), "23:59", "24:00", 1)
	}
	return t.Format(layout)
}

// offset writes d in the largest unit that measures it whole ("in 2 days").
func (l language) offset(d time.Duration) (string, error) {
	if d < time.Second {
		return l.Now, nil
	}
	unit, size := "second", time.Second
	for _, u := range []struct {
		name string
		size time.Duration
	}{{"day", 24 * time.Hour}, {"hour", time.Hour}, {"minute", time.Minute}} {
		if d >= u.size && d%u.size == 0 {
			unit, size = u.name, u.size
			break
		}
	}
	n := int(d / size)
	forms := l.Units[unit]
	form := forms["other"]
	switch {
	case n == 1:
		form = forms["one"]
	case forms["many"] != "" && n >= 20 && (n%100 == 0 || n%100 >= 20):
		form = forms["many"]
	}
	return execute(l.In, strings.Replace(form, "%d", fmt.Sprint(n), 1))
}

// execute runs a template text on v.
func execute(text string, v any) (string, error) {
	t, err := template.New("").Option("missingkey=error").Parse(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, v); err != nil {
		return "", err
	}
	return b.String(), nil
}

// DefaultZone is the time zone of a user who chose none, by their language: Romania's
// for ro, Italy's for it, UTC for en.
func DefaultZone(lang string) string {
	switch lang {
	case "ro":
		return "Europe/Bucharest"
	case "it":
		return "Europe/Rome"
	}
	return "UTC"
}
