package activities

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/internal/portal/portaltest"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestPollCourtFile: a poll tells each new hearing, result and solution once, as a
// case event whose texts name no party, and proposes the hearing's day and, after a
// civil decision at first instance, the appeal's last day.
func TestPollCourtFile(t *testing.T) {
	ctx := t.Context()
	fake := portaltest.New()
	defer fake.Close()
	c, err := st.CreateCase(ctx, store.Case{ID: uuid.NewString(), UserID: "u1", OrgID: "o1", Description: "x", Language: "ro", Phase: "active",
		Status: "active", Details: store.NewDetails("x")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddParty(ctx, store.Party{CaseID: c.ID, FirstName: "Ion", LastName: "Popescu"}); err != nil {
		t.Fatal(err)
	}
	const number, court = "1234/3/2030", "TribunalulBUCURESTI"
	link, _, err := st.LinkCourtFile(ctx, store.CourtFile{ID: store.CourtFileID(c.ID, court, number), CaseID: c.ID, Number: number, Court: court,
		LinkedBy: "u1", LinkedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	fake.AddFile(portal.Dosar{Numar: number, Institutie: court, CategorieCaz: "Civil", StadiuProcesualNume: "Fond",
		Parti: []portal.DosarParte{{Nume: "POPESCU ION", CalitateParte: "Reclamant"}, {Nume: "SC ALFA SRL", CalitateParte: "Pârât"}}})
	fake.AddHearing(number, court, portal.DosarSedinta{Complet: "C5", Data: portal.Day(2030, 1, 8), Ora: "09:00", Solutie: "Amână cauza",
		SolutieSumar: "Amână judecarea cererii formulate de POPESCU ION împotriva SC ALFA SRL la 05.03.2030.", DataPronuntare: portal.Day(2030, 1, 8)})
	fake.AddHearing(number, court, portal.DosarSedinta{Complet: "C5", Data: portal.Day(2030, 3, 5), Ora: "09:00"})

	now := time.Date(2030, 2, 1, 10, 0, 0, 0, portal.Zone)
	a := &CourtWatch{Files: st, Cases: st, Parties: st, Events: st, Portal: portal.New(fake.URL(), portal.Options{Interval: time.Millisecond}),
		Now: func() time.Time { return now }}
	ref := schemas.CourtFileRef{ID: link.ID, CaseID: c.ID}
	news, err := a.PollCourtFile(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(news.Items) != 2 || news.Items[0].Kind != schemas.CourtNewHearing || news.Items[1].Kind != schemas.CourtResult {
		t.Fatalf("news = %+v, want the hearing to come and the past hearing's result", news.Items)
	}
	hearing := news.Items[0]
	if hearing.Day != "2030-03-05" || hearing.Propose == nil || hearing.Propose.Args.Due != "2030-03-05" || hearing.Propose.Args.CaseID != c.ID ||
		hearing.Propose.ProposedBy != schemas.ProposedByCourt {
		t.Errorf("hearing's news = %+v (proposal %+v)", hearing, hearing.Propose)
	}
	if news.Items[1].Propose != nil {
		t.Errorf("a past hearing's result proposes %+v", news.Items[1].Propose)
	}
	n := hearing.Notify
	if n.Kind != schemas.NotifyCourtHearing || n.Owner != store.OwnerID("o1", "u1") || n.CaseID != c.ID || n.Params["numar_dosar"] != number {
		t.Errorf("notification = %+v", n)
	}
	events, err := st.ListEvents(ctx, c.ID, 0, 0)
	if err != nil || len(events) != 2 {
		t.Fatalf("events = %d, %v; want 2", len(events), err)
	}
	var body schemas.CourtEvent
	if err := json.Unmarshal(events[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	if events[1].Type != schemas.EventCourtHearing || body.Kind != schemas.CourtResult || body.Number != number || body.Day != "2030-01-08" {
		t.Errorf("event = %s %+v", events[1].Type, body)
	}
	for _, name := range []string{"POPESCU", "Popescu", "ALFA"} {
		if strings.Contains(string(events[1].Body), name) {
			t.Errorf("the event names a party (%s): %s", name, events[1].Body)
		}
	}
	if !strings.Contains(body.Summary, "Amână judecarea cererii formulate de {{") {
		t.Errorf("summary = %q, want the parties' placeholders", body.Summary)
	}

	// Polled again: nothing new, nothing appended.
	if again, err := a.PollCourtFile(ctx, ref); err != nil || len(again.Items) != 0 {
		t.Errorf("second poll = %+v, %v; want no news", again.Items, err)
	}

	// The hearing gives a decision: a solution, proposing the appeal's last day.
	fake.AddHearing(number, court, portal.DosarSedinta{Complet: "C5", Data: portal.Day(2030, 3, 5), Ora: "09:00", Solutie: "Admite",
		SolutieSumar: "Admite cererea.", DataPronuntare: portal.Day(2030, 3, 5), DocumentSedinta: "Hotarare", NumarDocument: "812/2030"})
	now = time.Date(2030, 3, 6, 10, 0, 0, 0, portal.Zone)
	sol, err := a.PollCourtFile(ctx, ref)
	if err != nil || len(sol.Items) != 1 || sol.Items[0].Kind != schemas.CourtSolution {
		t.Fatalf("after the decision: %+v, %v; want one solution", sol.Items, err)
	}
	p := sol.Items[0].Propose
	if p == nil || p.Args.Computation == nil || p.Args.Computation.From != "2030-03-05" || p.Args.Computation.Amount != 30 ||
		!strings.HasPrefix(p.Args.Title, "Apel") {
		t.Errorf("solution's proposal = %+v", p)
	}
	if p != nil && p.DeadlineID == hearing.Propose.DeadlineID {
		t.Error("the appeal's proposal has the hearing's ID")
	}
	if events, _ = st.ListEvents(ctx, c.ID, 0, 0); len(events) != 3 {
		t.Errorf("%d events, want 3", len(events))
	}

	// A refused request is not retried; a link gone is no news.
	if err := st.UnlinkCourtFile(ctx, c.ID, link.ID); err != nil {
		t.Fatal(err)
	}
	if gone, err := a.PollCourtFile(ctx, ref); err != nil || len(gone.Items) != 0 {
		t.Errorf("poll of an unlinked file = %+v, %v", gone, err)
	}
}
