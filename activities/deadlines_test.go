package activities

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestProposeDeadlineOnce: a proposal is stored as proposed, with the rules' day and
// the default reminders, once however often it is retried, and tells the case's
// owner without the user's title.
func TestProposeDeadlineOnce(t *testing.T) {
	ctx := context.Background()
	a := &Deadlines{Cases: st, Deadlines: st}
	caseID := newCase(t, "propose")
	in := schemas.ProposeDeadline{DeadlineID: uuid.NewString(), ProposedBy: schemas.ProposedByAssistant, Args: schemas.ProposeDeadlineArgs{
		CaseID: caseID, Title: "Apel împotriva sentinței", Source: schemas.DeadlineSource{Kind: schemas.SourceCourtOrder, Date: "2026-03-02"},
		Computation: &schemas.ComputeDeadlineArgs{Jurisdiction: "ro", From: "2026-03-02", Amount: 30, Unit: "days"}}}
	for range 2 {
		p, err := a.ProposeDeadline(ctx, in)
		if err != nil || p.Result.Status != schemas.ResultSuccess || p.Result.DeadlineID != in.DeadlineID || p.Result.Deadline != schemas.DeadlineProposed {
			t.Fatalf("ProposeDeadline = %+v, %v", p, err)
		}
		n := p.Notify
		if n == nil || n.Kind != schemas.NotifyDeadlineProposed || n.Owner != store.OwnerID("", "u") || n.CaseID != caseID ||
			n.Key != schemas.DeadlineNotificationKey(in.DeadlineID, schemas.NotifyDeadlineProposed, "", p.Result.Due, n.Owner) {
			t.Errorf("notification = %+v", n)
		}
		for _, v := range n.Params {
			if v == in.Args.Title {
				t.Errorf("the notification carries the title: %+v", n.Params)
			}
		}
	}
	ds, err := st.ListDeadlines(ctx, caseID)
	if err != nil || len(ds) != 1 {
		t.Fatalf("deadlines = %+v, %v; want one", ds, err)
	}
	d := ds[0]
	if d.Status != schemas.DeadlineProposed || d.Computation == nil || d.Due != "2026-04-02" || d.Zone != "Europe/Bucharest" ||
		!slices.Equal(d.Reminders, schemas.DefaultReminders) || d.Responsible != d.Owner || d.ProposedBy != schemas.ProposedByAssistant {
		t.Errorf("stored %+v", d)
	}
}

// TestProposeDeadlineRefuses: what cannot be a deadline is an error result the model
// can correct, and stores nothing.
func TestProposeDeadlineRefuses(t *testing.T) {
	ctx := context.Background()
	a := &Deadlines{Cases: st, Deadlines: st}
	caseID := newCase(t, "refuse")
	good := schemas.ProposeDeadlineArgs{CaseID: caseID, Title: "t", Source: schemas.DeadlineSource{Kind: schemas.SourceHearing}, Due: "2026-05-04", Jurisdiction: "it"}
	for name, mutate := range map[string]func(*schemas.ProposeDeadlineArgs){
		"no title":       func(a *schemas.ProposeDeadlineArgs) { a.Title = "  " },
		"unknown source": func(a *schemas.ProposeDeadlineArgs) { a.Source.Kind = "rumour" },
		"no day":         func(a *schemas.ProposeDeadlineArgs) { a.Due = "" },
		"both": func(a *schemas.ProposeDeadlineArgs) {
			a.Computation = &schemas.ComputeDeadlineArgs{Jurisdiction: "it", From: "2026-01-01", Amount: 1, Unit: "days"}
		},
		"bad day":    func(a *schemas.ProposeDeadlineArgs) { a.Due = "2026-02-30" },
		"no country": func(a *schemas.ProposeDeadlineArgs) { a.Jurisdiction = "" },
		"bad term": func(a *schemas.ProposeDeadlineArgs) {
			a.Due, a.Computation = "", &schemas.ComputeDeadlineArgs{Jurisdiction: "it", From: "2026-01-01", Amount: 0, Unit: "days"}
		},
		"no case": func(a *schemas.ProposeDeadlineArgs) { a.CaseID = "no-such-case" },
	} {
		args := good
		mutate(&args)
		p, err := a.ProposeDeadline(ctx, schemas.ProposeDeadline{DeadlineID: uuid.NewString(), Args: args})
		if err != nil || p.Result.Status != schemas.ResultError || p.Result.ErrorMessage == "" || p.Notify != nil {
			t.Errorf("%s: %+v, %v; want an error result", name, p, err)
		}
	}
	if ds, _ := st.ListDeadlines(ctx, caseID); len(ds) != 0 {
		t.Errorf("refused proposals stored %d deadlines", len(ds))
	}
	if p, err := a.ProposeDeadline(ctx, schemas.ProposeDeadline{DeadlineID: uuid.NewString(), Args: good}); err != nil || p.Result.Status != schemas.ResultSuccess {
		t.Errorf("the good proposal: %+v, %v", p, err)
	}
}

// TestMarkDeadlineMissed: marked once at the workflow's revision, a retry finds its
// own mark, and a deadline changed or done meanwhile is left as it is.
func TestMarkDeadlineMissed(t *testing.T) {
	ctx := context.Background()
	a := &Deadlines{Cases: st, Deadlines: st}
	caseID := newCase(t, "missed")
	d, err := st.CreateDeadline(ctx, store.Deadline{ID: uuid.NewString(), CaseID: caseID, Owner: "user:u", Title: "t",
		Source: schemas.DeadlineSource{Kind: schemas.SourceOther}, Due: "2026-05-04", Responsible: "user:u", Status: schemas.DeadlineActive})
	if err != nil {
		t.Fatal(err)
	}
	in := schemas.MarkDeadlineMissed{CaseID: caseID, DeadlineID: d.ID, Rev: d.Rev}
	for range 2 {
		m, err := a.MarkDeadlineMissed(ctx, in)
		if err != nil || !m.Marked || m.Plan.Status != schemas.DeadlineMissed {
			t.Fatalf("MarkDeadlineMissed = %+v, %v; want marked", m, err)
		}
	}
	done, err := st.CreateDeadline(ctx, store.Deadline{ID: uuid.NewString(), CaseID: caseID, Owner: "user:u", Title: "t",
		Source: schemas.DeadlineSource{Kind: schemas.SourceOther}, Due: "2026-05-04", Responsible: "user:u", Status: schemas.DeadlineActive})
	if err != nil {
		t.Fatal(err)
	}
	done.Status = schemas.DeadlineDone
	if done, err = st.UpdateDeadline(ctx, done); err != nil {
		t.Fatal(err)
	}
	m, err := a.MarkDeadlineMissed(ctx, schemas.MarkDeadlineMissed{CaseID: caseID, DeadlineID: done.ID, Rev: 1})
	if err != nil || m.Marked || m.Plan.Status != schemas.DeadlineDone || m.Plan.Rev != 2 {
		t.Errorf("a deadline done meanwhile: %+v, %v; want its plan, not marked", m, err)
	}
	gone, err := a.MarkDeadlineMissed(ctx, schemas.MarkDeadlineMissed{CaseID: caseID, DeadlineID: uuid.NewString(), Rev: 1})
	if err != nil || gone.Marked || gone.Plan.Status != schemas.DeadlineCancelled {
		t.Errorf("a deleted deadline: %+v, %v; want a cancelled plan", gone, err)
	}
}

// TestComputeDeadlineTool: the tool answers the route's computation, and a term the
// rules refuse as an error result.
func TestComputeDeadlineTool(t *testing.T) {
	a := &Deadlines{}
	got, err := a.ComputeDeadline(context.Background(), schemas.ComputeDeadlineArgs{Jurisdiction: "it", From: "2025-07-20", Amount: 30, Unit: "days"})
	if err != nil || got.Status != schemas.ResultSuccess || got.Due == "" || len(got.Rules) == 0 || len(got.NonWorking) == 0 {
		t.Errorf("ComputeDeadline across August = %+v, %v", got, err)
	}
	bad, err := a.ComputeDeadline(context.Background(), schemas.ComputeDeadlineArgs{Jurisdiction: "fr", From: "2025-07-20", Amount: 30, Unit: "days"})
	if err != nil || bad.Status != schemas.ResultError || bad.ErrorMessage == "" {
		t.Errorf("ComputeDeadline in France = %+v, %v", bad, err)
	}
}
