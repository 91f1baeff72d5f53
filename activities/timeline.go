package activities

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/internal/reidentify"
	"github.com/lexflow/lexflow/internal/timeline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Timelines are the activities of generate_image: a case's timeline chart, drawn from
// its case file's dated facts, its deadlines, its court files' hearings and its own
// events, stored as the case's sealed blob at schemas.TimelinePath.
type Timelines struct {
	Cases      store.Cases
	Parties    store.Parties
	Deadlines  store.Deadlines
	CourtFiles store.CourtFiles
	Blobs      blob.Store
	// Now marks today on the chart; time.Now when nil.
	Now func() time.Time
	// Events publishes timeline.ready.
	Events *Publisher
}

// defaultSide is a chart's width and height when the call leaves them out.
const defaultSide = 1024

// GenerateImage draws the case's timeline and stores it, replacing the one drawn
// before: drawing it again, or retrying, draws the case as it stands. The labels are
// in clear, the parties' placeholders filled in, for the client; the model reads only
// counts, the span and the download path. A size out of bounds is an answer for the
// model; store and blob errors are retried.
func (a *Timelines) GenerateImage(ctx context.Context, args schemas.GenerateImageArgs) (schemas.GenerateImageResult, error) {
	width, height := cmp.Or(args.Width, defaultSide), cmp.Or(args.Height, defaultSide)
	if reason := timeline.CheckSize(width, height); reason != "" {
		return schemas.GenerateImageResult{Status: schemas.ResultError, ErrorMessage: reason}, nil
	}
	cs, err := a.Cases.GetCase(ctx, args.CaseID)
	if err != nil {
		return schemas.GenerateImageResult{}, permanent(fmt.Errorf("read the case: %w", err))
	}
	parties, err := partiesOf(ctx, a.Parties, cs.ID)
	if err != nil {
		return schemas.GenerateImageResult{}, err
	}
	events, err := a.events(ctx, cs, parties)
	if err != nil {
		return schemas.GenerateImageResult{}, err
	}
	words := wordsOf(cs.Language)
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	l := timeline.Lay(events, timeline.Options{Title: cmp.Or(reidentify.Text(args.Prompt, parties), words.title),
		Width: width, Height: height, Today: now(), LaneNames: words.lanes})
	png, err := timeline.Render(l)
	if err != nil {
		return schemas.GenerateImageResult{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrInvalidArgs, err)
	}
	if err := a.Blobs.Put(ctx, schemas.TimelinePath(cs.ID), png); err != nil {
		return schemas.GenerateImageResult{}, fmt.Errorf("store the timeline: %w", err)
	}
	sum := sha256.Sum256(png)
	download := schemas.TimelineDownload(cs.ID)
	if err := a.Events.Publish(ctx, schemas.EventTimelineReady, schemas.EventTimelineReady, "", schemas.TimelineReadyEvent{
		Download: download, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(png)), Events: len(l.Events)}); err != nil {
		return schemas.GenerateImageResult{}, err
	}
	byLane := map[string]int{}
	for _, e := range l.Events {
		byLane[e.Lane]++
	}
	return schemas.GenerateImageResult{Status: schemas.ResultSuccess, Image: "timeline.png", Download: download,
		Width: width, Height: height, Events: len(l.Events), ByLane: byLane, From: l.From, To: l.To, LeftOut: l.LeftOut,
		Note: "The client sees the chart on the case page and can download it; its labels are the case's data and are not repeated here. " +
			"Facts appear on it when they carry a date (a \"date\" field, YYYY-MM-DD, or a date in their text)."}, nil
}

// events are what the case's chart plots, labelled in clear.
func (a *Timelines) events(ctx context.Context, cs store.Case, parties []pseudonym.Party) ([]timeline.Event, error) {
	words := wordsOf(cs.Language)
	clear := func(s string) string { return reidentify.Text(s, parties) }
	var out []timeline.Event
	facts, _ := cs.Details["facts"].([]any)
	for _, f := range facts {
		if day, text, ok := datedFact(f); ok {
			out = append(out, timeline.Event{Day: day, Label: clear(text), Lane: timeline.LaneFacts})
		}
	}
	deadlines, err := a.Deadlines.ListDeadlines(ctx, cs.ID)
	if err != nil {
		return nil, fmt.Errorf("read the deadlines: %w", err)
	}
	for _, d := range deadlines {
		day, err := time.Parse(time.DateOnly, d.Due)
		if err != nil || d.Status == schemas.DeadlineCancelled {
			continue
		}
		label := clear(d.Title)
		if d.Status == schemas.DeadlineProposed {
			label += " (" + words.proposed + ")"
		}
		out = append(out, timeline.Event{Day: day, Label: label, Lane: timeline.LaneDeadlines})
	}
	files, err := a.CourtFiles.ListCourtFiles(ctx, cs.ID)
	if err != nil {
		return nil, fmt.Errorf("read the court files: %w", err)
	}
	for _, f := range files {
		for _, h := range f.Hearings {
			label := words.hearing + " " + f.Number
			if h.Result != "" {
				label += ": " + h.Result
			}
			// The hearing's day is its midnight in the courts' zone.
			out = append(out, timeline.Event{Day: h.Date.In(portal.Zone), Label: label, Lane: timeline.LaneHearings})
		}
	}
	out = append(out, timeline.Event{Day: cs.CreatedAt, Label: words.opened, Lane: timeline.LaneEvents})
	for _, d := range schemas.RecordedDrafts(cs.Details) {
		out = append(out, timeline.Event{Day: d.CreatedAt, Label: fmt.Sprintf(words.draft, d.DraftName, d.Revision), Lane: timeline.LaneEvents})
	}
	return out, nil
}

// Dates a fact's text may give: 2026-03-02, or 2.3.2026 and 02/03/2026 (day first,
// as Romanian and Italian write them).
var (
	isoDateRe  = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	dayFirstRe = regexp.MustCompile(`\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b`)
)

// datedFact reads a case_details fact ({"fact": text, "date": "YYYY-MM-DD"}, or a
// string) and its day: its date field, else the first date in its text. A day outside
// 1900 to 2199 (a typo, a historical date) leaves the fact off rather than stretch the
// axis over centuries.
func datedFact(f any) (time.Time, string, bool) {
	var text, date string
	switch v := f.(type) {
	case string:
		text = v
	case map[string]any:
		text, _ = v["fact"].(string)
		date, _ = v["date"].(string)
	}
	if text == "" {
		return time.Time{}, "", false
	}
	if d, err := time.Parse(time.DateOnly, date); err == nil && plausible(d) {
		return d, text, true
	}
	d, ok := dateIn(text)
	return d, text, ok && plausible(d)
}

// plausible is a day the chart places: from 1900 to 2199.
func plausible(d time.Time) bool { return d.Year() >= 1900 && d.Year() < 2200 }

// dateIn is the first valid date written in s.
func dateIn(s string) (time.Time, bool) {
	if m := isoDateRe.FindStringSubmatch(s); m != nil {
		if d, err := time.Parse(time.DateOnly, m[0]); err == nil {
			return d, true
		}
	}
	if m := dayFirstRe.FindStringSubmatch(s); m != nil {
		day, _ := strconv.Atoi(m[1])
		month, _ := strconv.Atoi(m[2])
		year, _ := strconv.Atoi(m[3])
		d := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
		if d.Day() == day && int(d.Month()) == month {
			return d, true
		}
	}
	return time.Time{}, false
}

// timelineWording is the chart's text in one language.
type timelineWording struct {
	title, opened, draft, hearing, proposed string
	lanes                                   map[string]string
}

// timelineWords are the chart's texts by case language.
var timelineWords = map[string]timelineWording{
	"en": {title: "Timeline of the case", opened: "Case opened", draft: "Draft %s, revision %d", hearing: "Hearing",
		proposed: "proposed", lanes: map[string]string{timeline.LaneFacts: "Facts", timeline.LaneDeadlines: "Deadlines",
			timeline.LaneHearings: "Hearings", timeline.LaneEvents: "Case"}},
	"ro": {title: "Cronologia cazului", opened: "Caz deschis", draft: "Documentul %s, revizia %d", hearing: "Termen",
		proposed: "propus", lanes: map[string]string{timeline.LaneFacts: "Fapte", timeline.LaneDeadlines: "Termene",
			timeline.LaneHearings: "Ședințe", timeline.LaneEvents: "Caz"}},
	"it": {title: "Cronologia del caso", opened: "Caso aperto", draft: "Bozza %s, revisione %d", hearing: "Udienza",
		proposed: "proposta", lanes: map[string]string{timeline.LaneFacts: "Fatti", timeline.LaneDeadlines: "Scadenze",
			timeline.LaneHearings: "Udienze", timeline.LaneEvents: "Caso"}},
}

// wordsOf is the chart's text in a case's language, English for another.
func wordsOf(lang string) timelineWording {
	if w, ok := timelineWords[lang]; ok {
		return w
	}
	return timelineWords["en"]
}
