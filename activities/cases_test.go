package activities

import (
	"context"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestUpdateCaseDetailsRefusesSystemFields is what a prompt-injected model tries: write
// the fields Lexflow owns (a forged draft pointing at another case's PDF, a tier, a
// payment, support's log) through update_case_details. Each is refused and nothing is
// written; the workflows' own writes go through.
func TestUpdateCaseDetailsRefusesSystemFields(t *testing.T) {
	ctx := context.Background()
	a := &Cases{Store: st}
	id := newCase(t, "system-fields")
	forged := map[string]any{"draft_name": "X", "revision": 1, "path": "cases/victim/drafts/Cerere/rev-1.pdf"}
	for _, updates := range []map[string]any{
		{"draft_status.X_rev1": forged},
		{"draft_status": map[string]any{"X_rev1": forged}},
		{"tier": map[string]any{"level": 1}},
		{"tier.level": 1},
		{"payment": map[string]any{"reference": "i-promise"}},
		{"support_log": []any{map[string]any{"action": "close"}}},
		{"escalation.rung": "ticket"},
		{"summary.current": "fine", "draft_status.Y_rev1": forged},
	} {
		res, err := a.UpdateCaseDetails(ctx, schemas.UpdateCaseDetailsArgs{CaseID: id, Updates: updates})
		if err != nil || res.Status != schemas.ResultError || !strings.HasPrefix(res.ErrorMessage, "Update failed due to invalid field") {
			t.Errorf("update %v = %+v, %v; want the invalid-field refusal", updates, res, err)
		}
	}
	c, err := st.GetCase(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != 0 || c.Details["draft_status"] != nil || c.Details["tier"] != nil {
		t.Errorf("refused updates wrote the case: version %d, details %v", c.Version, c.Details)
	}
	res, err := a.UpdateCaseDetails(ctx, schemas.UpdateCaseDetailsArgs{CaseID: id, System: true,
		Updates: map[string]any{"tier": map[string]any{"level": 2, "justification": "a claim in court"}}})
	if err != nil || res.Status != schemas.ResultSuccess {
		t.Errorf("the workflow's own tier update = %+v, %v", res, err)
	}
}

// TestAttackCaseDetailsBounded (issue 36, finding 11): 70 appends of 60 KB were
// accepted. An entry past store.MaxDetailsValueBytes is refused, appends of smaller
// entries are refused once case_details would pass store.MaxDetailsBytes, each with a
// reason the model can act on, and the workflows' own writes still go through.
func TestAttackCaseDetailsBounded(t *testing.T) {
	ctx := context.Background()
	a := &Cases{Store: st}
	id := newCase(t, "details-bounded")
	res, err := a.UpdateCaseDetails(ctx, schemas.UpdateCaseDetailsArgs{CaseID: id,
		Updates: map[string]any{"internal_notes": []any{strings.Repeat("n", 60<<10)}}})
	if err != nil || res.Status != schemas.ResultError || !strings.Contains(res.ErrorMessage, "internal_notes gets a value of") {
		t.Fatalf("a 60 KB entry: %+v, %v", res, err)
	}
	entry := strings.Repeat("n", 30<<10)
	accepted := 0
	for range 70 {
		res, err = a.UpdateCaseDetails(ctx, schemas.UpdateCaseDetailsArgs{CaseID: id, Updates: map[string]any{"internal_notes": []any{entry}}})
		if err != nil || res.Status != schemas.ResultSuccess {
			break
		}
		accepted++
	}
	if err != nil || accepted != store.MaxDetailsBytes/len(entry) || !strings.Contains(res.ErrorMessage, "case_details would have") {
		t.Fatalf("after %d appends of 30 KB: %+v, %v", accepted, res, err)
	}
	res, err = a.UpdateCaseDetails(ctx, schemas.UpdateCaseDetailsArgs{CaseID: id, System: true,
		Updates: map[string]any{"tier": map[string]any{"level": 2, "justification": "a claim in court"}}})
	if err != nil || res.Status != schemas.ResultSuccess {
		t.Errorf("the workflow's own tier update = %+v, %v", res, err)
	}
}

// TestGetCaseDetailsPartsAndParties: the case file lists its parties as placeholders,
// never their values, and a path reads one part of it, a list's item by its number; a
// path that leads nowhere, or into the uploads' records, is an answer, not a failure.
func TestGetCaseDetailsPartsAndParties(t *testing.T) {
	ctx := context.Background()
	id := newCase(t, "details-parts")
	if _, err := st.UpdateDetails(ctx, id, 0, "", map[string]any{"facts": []any{"first", "second"},
		"legal_research.legislation": []any{"Codul civil, art. 1357"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddParty(ctx, store.Party{CaseID: id, FirstName: "Ion", LastName: "Popescu", CNP: "1800101221144"}); err != nil {
		t.Fatal(err)
	}
	a := &Cases{Store: st, Parties: st}
	res, err := a.GetCaseDetails(ctx, schemas.GetCaseDetailsArgs{CaseID: id})
	if err != nil || res.Status != schemas.ResultSuccess || len(res.Parties) != 1 {
		t.Fatalf("case file = %+v, %v", res, err)
	}
	if got := strings.Join(res.Parties[0].Placeholders, " "); !strings.Contains(got, "{{party0.fullName}}") ||
		!strings.Contains(got, "{{party0.cnp}}") || strings.Contains(got, "cui") || strings.Contains(got, "Popescu") {
		t.Errorf("party0's placeholders = %s", got)
	}
	for path, want := range map[string]any{"facts.1": "second", "legal_research.legislation.0": "Codul civil, art. 1357"} {
		res, err := a.GetCaseDetails(ctx, schemas.GetCaseDetailsArgs{CaseID: id, Path: path})
		if err != nil || res.Status != schemas.ResultSuccess || res.Value != want || res.Path != path || res.CaseDetails != nil {
			t.Errorf("path %s = %+v, %v; want %v", path, res, err, want)
		}
	}
	for _, path := range []string{"facts.2", "facts.x", "nothing", "summary.current.deeper", schemas.DocumentsField} {
		res, err := a.GetCaseDetails(ctx, schemas.GetCaseDetailsArgs{CaseID: id, Path: path})
		if err != nil || res.Status != schemas.ResultError || !strings.Contains(res.ErrorMessage, path) {
			t.Errorf("path %s = %+v, %v; want an error naming it", path, res, err)
		}
	}
}
