package activities

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestAttackLegalHoldFreezes (issue 36, finding 18): under a legal hold the model's
// (or an admin's) update_case_details and generate_draft_pdf are refused with a clear
// answer and change nothing; the workflow's own updates go on; once the hold is
// lifted the update is made.
func TestAttackLegalHoldFreezes(t *testing.T) {
	ctx := t.Context()
	c, err := st.CreateCase(ctx, store.Case{ID: uuid.NewString(), UserID: "u", Phase: schemas.PhaseActive, Status: schemas.StatusOpen,
		Details: store.NewDetails("d")})
	if err != nil {
		t.Fatal(err)
	}
	cases := &Cases{Store: st}
	write := schemas.UpdateCaseDetailsArgs{CaseID: c.ID, Updates: map[string]any{"summary.current": "rewritten"}}
	if res, err := cases.UpdateCaseDetails(ctx, write); err != nil || res.Status != schemas.ResultSuccess {
		t.Fatalf("update before the hold: %+v, %v", res, err)
	}
	if err := st.SetHold(ctx, c.ID, "", &store.Hold{By: "sam", Reason: "litigation", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	write.Updates = map[string]any{"summary.current": "rewritten under the hold"}
	res, err := cases.UpdateCaseDetails(ctx, write)
	if err != nil || res.Status != schemas.ResultError || !strings.Contains(res.ErrorMessage, "legal hold") {
		t.Errorf("update under the hold: %+v, %v; want a refusal naming the hold", res, err)
	}
	draft, err := (&Drafts{Cases: st, Parties: st}).RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: schemas.GenerateDraftPDFArgs{
		CaseID: c.ID, DraftName: "Cerere", Revision: 1, MarkdownContent: "# Cerere"}})
	if err != nil || !strings.Contains(draft.ErrorMessage, "legal hold") {
		t.Errorf("draft under the hold: %+v, %v; want a refusal naming the hold", draft, err)
	}
	got, err := st.GetCase(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if summary, _ := got.Details["summary"].(map[string]any); summary["current"] != "rewritten" {
		t.Errorf("summary under the hold = %v, want it unchanged", got.Details["summary"])
	}
	if res, err := cases.UpdateCaseDetails(ctx, schemas.UpdateCaseDetailsArgs{CaseID: c.ID, System: true,
		Updates: map[string]any{"tiering.tier": 2}}); err != nil || res.Status != schemas.ResultSuccess {
		t.Errorf("the workflow's own update under the hold: %+v, %v", res, err)
	}
	if err := st.SetHold(ctx, c.ID, "", nil); err != nil {
		t.Fatal(err)
	}
	if res, err := cases.UpdateCaseDetails(ctx, write); err != nil || res.Status != schemas.ResultSuccess {
		t.Errorf("update once the hold is lifted: %+v, %v", res, err)
	}
}
