package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// courtNumber is a file number no other test of the package uses: the fake portal is
// shared.
func courtNumber(n int) string { return fmt.Sprintf("%d/3/%d", n, 2030) }

// TestCourtWatchFindsANewHearing is issue 41's story: a file linked on the (fake)
// portal, a hearing added to it, the court-watch schedule triggered; the case gets a
// court.hearing event that names no party, a proposed deadline on the hearing's day,
// and its owner a court.hearing notification.
func TestCourtWatchFindsANewHearing(t *testing.T) {
	ctx := t.Context()
	tok := s.Token(t, "cw-owner")
	id := s.CreateCase(t, tok, "Recuperare creanță de la SC Beta SRL")
	number := courtNumber(41)
	s.Portal.AddFile(portal.Dosar{Numar: number, Institutie: "TribunalulBUCURESTI", CategorieCaz: "Civil", StadiuProcesualNume: "Fond",
		Parti: []portal.DosarParte{{Nume: "SC BETA SRL", CalitateParte: "Pârât"}}})

	r := s.Call(t, "POST", "/v1/cases/"+id+"/court-files", tok, map[string]string{"numar_dosar": number, "institutie": "TribunalulBUCURESTI"})
	if r.Status != http.StatusCreated || r.Header.Get("Location") == "" || r.Body["numar_dosar"] != number {
		t.Fatalf("link = %d %s", r.Status, r.Raw)
	}
	fid, _ := r.Body["file_id"].(string)
	if again := s.Call(t, "POST", "/v1/cases/"+id+"/court-files", tok, map[string]string{"numar_dosar": number, "institutie": "TribunalulBUCURESTI"}); again.Status != http.StatusOK || again.Body["file_id"] != fid {
		t.Errorf("linked again = %d %s, want the same link", again.Status, again.Raw)
	}

	day := time.Now().In(portal.Zone).AddDate(0, 1, 0)
	hearing := portal.Day(day.Year(), day.Month(), day.Day())
	s.Portal.AddHearing(number, "TribunalulBUCURESTI", portal.DosarSedinta{Complet: "C7", Data: hearing, Ora: "10:00",
		SolutieSumar: "Se citează pârâta SC BETA SRL."})
	s.RunCourtWatch(t)

	events := s.Call(t, "GET", "/v1/cases/"+id+"/events", tok, nil)
	var page struct {
		Events []struct {
			Type string             `json:"type"`
			Body schemas.CourtEvent `json:"body"`
		} `json:"events"`
	}
	if err := json.Unmarshal(events.Raw, &page); err != nil {
		t.Fatal(err)
	}
	var court []schemas.CourtEvent
	for _, e := range page.Events {
		if e.Type == schemas.EventCourtHearing {
			court = append(court, e.Body)
		}
	}
	if len(court) != 1 || court[0].Number != number || court[0].Day != hearing.Format(time.DateOnly) || court[0].Proposed == "" {
		t.Fatalf("court events = %+v, want the new hearing with its proposed deadline", court)
	}
	if strings.Contains(strings.ToUpper(string(events.Raw)), "BETA") {
		t.Errorf("a court event names the party: %s", events.Raw)
	}

	dl, err := s.Store.GetDeadline(ctx, id, court[0].Proposed)
	if err != nil || dl.Status != schemas.DeadlineProposed || dl.Due != hearing.Format(time.DateOnly) || dl.ProposedBy != schemas.ProposedByCourt {
		t.Errorf("proposed deadline = %+v, %v; want proposed on %s by the court", dl, err, hearing.Format(time.DateOnly))
	}
	owner := store.OwnerID("acme", "cw-owner")
	notes, err := s.Store.ListNotifications(ctx, owner, "", 50)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, n := range notes {
		kinds[n.Kind]++
	}
	if kinds[schemas.NotifyCourtHearing] != 1 || kinds[schemas.NotifyDeadlineProposed] != 1 {
		t.Errorf("notifications by kind = %v, want one court.hearing and one deadline.proposed", kinds)
	}

	list := s.Call(t, "GET", "/v1/cases/"+id+"/court-files", tok, nil)
	var files api.CourtFileList
	if err := json.Unmarshal(list.Raw, &files); err != nil || len(files.CourtFiles) != 1 || len(files.CourtFiles[0].Hearings) != 1 ||
		files.CourtFiles[0].CheckedAt.IsZero() || files.CourtFiles[0].Hearings[0].Panel != "C7" {
		t.Errorf("court files = %s", list.Raw)
	}

	// Triggered again with nothing new: no second event, no second notification.
	s.RunCourtWatch(t)
	if again, _ := s.Store.ListNotifications(ctx, owner, "", 50); len(again) != len(notes) {
		t.Errorf("a second run with nothing new notified %d times more", len(again)-len(notes))
	}

	if del := s.Call(t, "DELETE", "/v1/cases/"+id+"/court-files/"+fid, tok, nil); del.Status != http.StatusNoContent {
		t.Errorf("unlink = %d %s", del.Status, del.Raw)
	}
	stack.WantProblem(t, s.Call(t, "DELETE", "/v1/cases/"+id+"/court-files/"+fid, tok, nil), http.StatusNotFound, "not-found")
	s.RecordRuns(t, "court-watch", "court-watch-", "court-watch.")
}

// TestCourtFilesRefuseHostileInput: another tenant's case, forged IDs, malformed
// numbers and courts, oversized bodies and more links than a case may hold are
// refused; a file the portal does not know is refused; and without a portal, linking
// is refused with a problem that says so.
func TestCourtFilesRefuseHostileInput(t *testing.T) {
	tok, mallory := s.Token(t, "cw-alice"), s.Mint(t, auth.Identity{Subject: "cw-mallory", Org: "evil", Roles: []string{schemas.RoleUser}})
	id := s.CreateCase(t, tok, "Litigiu comercial")
	path := "/v1/cases/" + id + "/court-files"
	link := func(tok, number, court string) stack.Response {
		return s.Call(t, "POST", path, tok, map[string]string{"numar_dosar": number, "institutie": court})
	}
	known := courtNumber(42)
	s.Portal.AddFile(portal.Dosar{Numar: known, Institutie: "TribunalulCLUJ"})

	stack.WantProblem(t, link(mallory, known, "TribunalulCLUJ"), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "GET", path, mallory, nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/not-a-uuid/court-files", tok, map[string]string{"numar_dosar": known, "institutie": "TribunalulCLUJ"}), http.StatusNotFound, "not-found")
	for _, bad := range []struct{ number, court string }{
		{"1234-3-2030", "TribunalulCLUJ"}, {"", "TribunalulCLUJ"}, {"1/3/2030'; DROP", "TribunalulCLUJ"}, {strings.Repeat("9", 300) + "/3/2030", "TribunalulCLUJ"},
		{known, "Tribunalul Cluj"}, {known, "TribunalulNICAIERI"}, {known, ""}, {known, "<script>"},
	} {
		stack.WantProblem(t, link(tok, bad.number, bad.court), http.StatusUnprocessableEntity, "invalid-input")
	}
	stack.WantProblem(t, link(tok, courtNumber(43), "TribunalulCLUJ"), http.StatusUnprocessableEntity, "invalid-input") // unknown to the portal
	stack.WantProblem(t, s.Call(t, "POST", path, tok, `{"numar_dosar": "`+strings.Repeat("1", 300_000)+`"}`), http.StatusRequestEntityTooLarge, "too-large")
	stack.WantProblem(t, s.Call(t, "POST", path, tok, `{"numar_dosar": 12}`), http.StatusBadRequest, "bad-json")

	first := link(tok, known, "TribunalulCLUJ")
	if first.Status != http.StatusCreated {
		t.Fatalf("link = %d %s", first.Status, first.Raw)
	}
	fid, _ := first.Body["file_id"].(string)
	stack.WantProblem(t, s.Call(t, "DELETE", path+"/"+fid, mallory, nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "DELETE", path+"/cf-0000000000000000", tok, nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "DELETE", path+"/..%2F..%2Fcases", tok, nil), http.StatusNotFound, "not-found")

	// A flood: past the case's limit every link is refused.
	for i := range store.MaxCourtFilesPerCase {
		s.Portal.AddFile(portal.Dosar{Numar: courtNumber(1000 + i), Institutie: "TribunalulCLUJ"})
	}
	refused := 0
	for i := range store.MaxCourtFilesPerCase {
		if r := link(tok, courtNumber(1000+i), "TribunalulCLUJ"); r.Status == http.StatusConflict {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("%d of %d links past one were refused, want the last one (a case links at most %d)", refused, store.MaxCourtFilesPerCase, store.MaxCourtFilesPerCase)
	}

	noPortal := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.PortalURL = "" })
	r := noPortal.Call(t, "POST", path, tok, map[string]string{"numar_dosar": courtNumber(44), "institutie": "TribunalulCLUJ"})
	stack.WantProblem(t, r, http.StatusNotImplemented, "court-portal-not-configured")
	if !strings.Contains(string(r.Raw), "LEXFLOW_PORTAL_URL") {
		t.Errorf("the refusal does not say what is missing: %s", r.Raw)
	}
}
