package activities

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/internal/timeline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestGenerateImagePlotsTheCase draws a case's facts with dates, its deadlines, its
// hearings and its own events in day order, in clear for the client, and answers the
// model with counts and a path, no label.
func TestGenerateImagePlotsTheCase(t *testing.T) {
	ctx := t.Context()
	blobs, err := blob.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opened := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	c, err := st.CreateCase(ctx, store.Case{ID: "timeline-" + uuid.NewString(), UserID: "u", Language: "ro", Phase: schemas.PhaseActive,
		Status: schemas.StatusOpen, Details: store.NewDetails("d")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddParty(ctx, store.Party{CaseID: c.ID, FirstName: "Ion", LastName: "Popescu"}); err != nil {
		t.Fatal(err)
	}
	facts := []any{
		map[string]any{"fact": "{{party0.fullName}} a semnat contractul", "date": "2026-01-10"},
		map[string]any{"fact": "Notificarea a plecat la 15.01.2026"},
		map[string]any{"fact": "Chiria nu s-a plătit"}, // no date: not plotted
		map[string]any{"fact": "Somația din 2026-02-30 nu există", "date": "ieri"},
		map[string]any{"fact": "Casa e construită la 1.1.1700"}, // centuries off: not plotted
		map[string]any{"fact": "Termenul din contract", "date": "9999-12-31"},
	}
	if _, err := st.UpdateDetails(ctx, c.ID, 0, "", map[string]any{"facts": facts,
		"draft_status.Cerere_rev1": map[string]any{"draft_name": "Cerere", "revision": 1, "created_at": time.Date(2026, 3, 20, 10, 0, 0, 0, time.UTC)}}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct{ title, due, status string }{
		{"Apel pentru {{party0.lastName}}", "2026-05-12", schemas.DeadlineActive},
		{"Întâmpinare", "2026-04-02", schemas.DeadlineProposed},
		{"Renunțat", "2026-04-20", schemas.DeadlineCancelled},
	} {
		due, _ := time.Parse(time.DateOnly, d.due)
		if _, err := st.CreateDeadline(ctx, store.Deadline{ID: uuid.NewString(), CaseID: c.ID, Owner: "u", Title: d.title,
			Source: schemas.DeadlineSource{Kind: schemas.SourceCourtOrder}, Due: d.due, Zone: "Europe/Bucharest", EndsAt: due.AddDate(0, 0, 1),
			Responsible: "u", Status: d.status}); err != nil {
			t.Fatal(err)
		}
	}
	const number, court = "1234/3/2026", "TribunalulBUCURESTI"
	fileID := store.CourtFileID(c.ID, court, number)
	if _, _, err := st.LinkCourtFile(ctx, store.CourtFile{ID: fileID, CaseID: c.ID, Number: number, Court: court, LinkedBy: "u", LinkedAt: opened}); err != nil {
		t.Fatal(err)
	}
	hearings := []store.CourtHearing{{Date: time.Date(2026, 3, 3, 0, 0, 0, 0, portal.Zone), Hour: "09:00", Panel: "C5", Result: "Amână cauza"}}
	if err := st.RecordCourtHearings(ctx, c.ID, fileID, hearings, "Fond", opened); err != nil {
		t.Fatal(err)
	}

	a := &Timelines{Cases: st, Parties: st, Deadlines: st, CourtFiles: st, Blobs: blobs,
		Now: func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }}
	res, err := a.GenerateImage(ctx, schemas.GenerateImageArgs{CaseID: c.ID, Prompt: "Dosarul {{party0.lastName}}", Width: 900, Height: 500})
	if err != nil || res.Status != schemas.ResultSuccess {
		t.Fatalf("GenerateImage = %+v, %v", res, err)
	}
	r, err := blobs.Open(ctx, schemas.TimelinePath(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	png, _ := io.ReadAll(r)
	r.Close()
	l, err := timeline.Read(png)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range l.Events {
		got = append(got, e.Day+" "+e.Lane+" "+e.Label)
	}
	want := []string{
		"2026-01-10 facts Ion Popescu a semnat contractul",
		"2026-01-15 facts Notificarea a plecat la 15.01.2026",
		"2026-03-03 hearings Termen 1234/3/2026: Amână cauza",
		"2026-03-20 events Documentul Cerere, revizia 1",
		"2026-04-02 deadlines Întâmpinare (propus)",
		"2026-05-12 deadlines Apel pentru Popescu",
	}
	// The store stamps the case's opening.
	want = append(want, c.CreatedAt.UTC().Format(time.DateOnly)+" events Caz deschis")
	slices.SortStableFunc(want, func(a, b string) int { return strings.Compare(a[:10], b[:10]) })
	if !slices.Equal(got, want) {
		t.Errorf("plotted\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if l.Title != "Dosarul Popescu" || l.Width != 900 || l.Height != 500 || l.Today != "2026-03-01" || l.LaneNames[timeline.LaneHearings] != "Ședințe" {
		t.Errorf("chart %q %dx%d today %s lanes %v", l.Title, l.Width, l.Height, l.Today, l.LaneNames)
	}
	shown, _ := json.Marshal(res)
	if strings.Contains(string(shown), "Popescu") || strings.Contains(string(shown), "Apel") {
		t.Errorf("the model reads the chart's labels: %s", shown)
	}
	if res.Events != 7 || res.ByLane[timeline.LaneFacts] != 2 || res.ByLane[timeline.LaneDeadlines] != 2 || res.ByLane[timeline.LaneEvents] != 2 || res.From != "2026-01-10" ||
		res.Download != "/v1/cases/"+c.ID+"/timeline" {
		t.Errorf("result %s", shown)
	}

	for _, args := range []schemas.GenerateImageArgs{{CaseID: c.ID, Width: 100}, {CaseID: c.ID, Height: 4096}} {
		if res, err := a.GenerateImage(ctx, args); err != nil || res.Status != schemas.ResultError || !strings.Contains(res.ErrorMessage, "320 to 2048") {
			t.Errorf("%+v → %+v, %v; want an error for the model", args, res, err)
		}
	}
}
