package api_test

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/internal/timeline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestTimelineChart asks for the case's timeline in the chat (the offline model calls
// generate_image) and reads the chart back by what it plots: the dated facts, the
// deadline and the hearing in day order, labelled in clear for the client, while the
// model read no label. The PNG is stored sealed; its owner and staff in scope download
// it, no one else; it goes with the case's erasure.
func TestTimelineChart(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	owner := s.Token(t, "timeline-client")
	id := s.CreateCase(t, owner, "My landlord keeps the deposit after the lease ended")
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", owner, map[string]any{"first_name": "Gheorghe", "last_name": "Cronologescu"}); r.Status != http.StatusCreated {
		t.Fatalf("party: %d %s", r.Status, r.Raw)
	}
	facts := []any{
		map[string]any{"fact": "{{party0.fullName}} signed the lease", "date": "2025-03-01"},
		map[string]any{"fact": "The lease ended on 28.02.2026"},
		map[string]any{"fact": "The deposit was never returned"},
	}
	if _, err := s.Store.UpdateDetails(ctx, id, 0, "", map[string]any{"facts": facts}); err != nil {
		t.Fatal(err)
	}
	due, _ := time.Parse(time.DateOnly, "2026-06-15")
	if _, err := s.Store.CreateDeadline(ctx, store.Deadline{ID: uuid.NewString(), CaseID: id, TenantID: "acme", Owner: "timeline-client",
		Title: "Claim against {{party0.lastName}}", Source: schemas.DeadlineSource{Kind: schemas.SourceOther}, Due: "2026-06-15",
		Zone: "Europe/Bucharest", EndsAt: due.AddDate(0, 0, 1), Responsible: "timeline-client", Status: schemas.DeadlineActive}); err != nil {
		t.Fatal(err)
	}
	const number, court = "777/3/2026", "JudecatoriaSECTORUL1BUCURESTI"
	file := store.CourtFileID(id, court, number)
	if _, _, err := s.Store.LinkCourtFile(ctx, store.CourtFile{ID: file, CaseID: id, Number: number, Court: court, LinkedBy: "timeline-client", LinkedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	hearing := store.CourtHearing{Date: time.Date(2026, 4, 7, 0, 0, 0, 0, portal.Zone), Hour: "09:00", Panel: "C3", Result: "Amână cauza"}
	if err := s.Store.RecordCourtHearings(ctx, id, file, []store.CourtHearing{hearing}, "Fond", time.Now()); err != nil {
		t.Fatal(err)
	}

	path := "/v1/cases/" + id + "/timeline"
	stack.WantProblem(t, s.Call(t, "GET", path, owner, nil), http.StatusNotFound, "not-found")
	turn := s.Send(t, owner, id, "timeline: The deposit of {{party0.lastName}}")
	used := stack.ToolsUsed(turn)
	if len(used) != 1 || used[0]["tool"] != schemas.ToolGenerateImage || used[0]["status"] != "ok" {
		t.Fatalf("turn: %s", turn.Raw)
	}
	if summary, _ := used[0]["summary"].(string); !strings.Contains(summary, path) || strings.Contains(summary, "Cronologescu") || strings.Contains(summary, "lease") {
		t.Errorf("the model read %q; want the download path and no label", summary)
	}

	r := s.Call(t, "GET", path, owner, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("download: %d %s", r.Status, r.Header)
	}
	l, err := timeline.Read(r.Raw)
	if err != nil {
		t.Fatal(err)
	}
	var plotted []string
	for _, e := range l.Events {
		if e.Lane != timeline.LaneEvents { // the case's opening is today's
			plotted = append(plotted, e.Day+" "+e.Lane+" "+e.Label)
		}
	}
	want := []string{"2025-03-01 facts Gheorghe Cronologescu signed the lease", "2026-02-28 facts The lease ended on 28.02.2026",
		"2026-04-07 hearings Hearing 777/3/2026: Amână cauza", "2026-06-15 deadlines Claim against Cronologescu"}
	if !slices.Equal(plotted, want) {
		t.Errorf("the chart plots\n%s\nwant\n%s", strings.Join(plotted, "\n"), strings.Join(want, "\n"))
	}
	if l.Title != "The deposit of Cronologescu" || l.Width != 1200 || l.Height != 720 {
		t.Errorf("chart %q %dx%d", l.Title, l.Width, l.Height)
	}

	// Stored sealed: the file under the blob root is a sealed blob, not the PNG.
	raw, err := os.ReadFile(filepath.Join(s.BlobDir, filepath.FromSlash(schemas.TimelinePath(id))))
	if err != nil || !bytes.HasPrefix(raw, []byte("LXE1")) || bytes.Contains(raw, []byte("\x89PNG")) || bytes.Contains(raw, []byte("Cronologescu")) {
		t.Errorf("the stored chart is not sealed (%v)", err)
	}

	for who, tok := range map[string]string{
		"another client":          s.Token(t, "timeline-neighbour"),
		"an admin of another org": s.Mint(t, auth.Identity{Subject: "boss", Org: "elsewhere", Roles: []string{schemas.RoleAdmin}}),
	} {
		if r := s.Call(t, "GET", path, tok, nil); r.Status != http.StatusNotFound || bytes.Contains(r.Raw, []byte("Cronologescu")) {
			t.Errorf("%s reads the chart: %d", who, r.Status)
		}
	}
	desk := s.Mint(t, auth.Identity{Subject: "timeline-desk", Org: "acme", Roles: []string{schemas.RoleSupport}})
	if r := s.Call(t, "GET", path, desk, nil); r.Status != http.StatusOK {
		t.Errorf("support of its org: %d %s", r.Status, r.Raw)
	}
	entries, err := s.Store.ListAudit(ctx, store.AuditFilter{CaseID: id})
	if err != nil || !slices.ContainsFunc(entries, func(e store.AuditEntry) bool { return e.Action == "case.timeline.read" && e.Actor == "timeline-desk" }) {
		t.Errorf("support's read is not audited: %+v, %v", entries, err)
	}
	s.RecordHistories(t, "timeline", id)

	if r := s.Call(t, "DELETE", "/v1/cases/"+id, owner, nil); r.Status != http.StatusOK {
		t.Fatalf("erase: %d %s", r.Status, r.Raw)
	}
	if _, err := s.Blobs.Open(ctx, schemas.TimelinePath(id)); !errors.Is(err, blob.ErrNotExist) {
		t.Errorf("the chart outlived the erasure: %v", err)
	}
	stack.WantProblem(t, s.Call(t, "GET", path, owner, nil), http.StatusGone, "case-erased")
	s.CheckErased(t, id, "Cronologescu")
}
