package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/disclosure"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

func TestRenderDraft(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	blobs, err := blob.NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := &Drafts{Cases: st, Parties: st, Blobs: blobs}
	id := newCase(t, "draft")
	if _, err := st.AddParty(ctx, store.Party{CaseID: id, FirstName: "Ion", LastName: "Popescu", CNP: "1800101123456"}); err != nil {
		t.Fatal(err)
	}
	args := schemas.GenerateDraftPDFArgs{CaseID: id, DraftName: "Cerere", Revision: 1,
		MarkdownContent: "# Cerere\n\nReclamant: **{{party0.fullName}}**, CNP {{party0.cnp}}."}

	first, err := a.RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: args})
	if err != nil || first.ErrorMessage != "" || first.Draft.Path != schemas.DraftPath(id, "Cerere", 1) {
		t.Fatalf("render: %+v, %v", first, err)
	}
	if err := a.RecordDraft(ctx, schemas.RecordDraft{CaseID: id, Draft: first.Draft}); err != nil {
		t.Fatal(err)
	}
	again, err := a.RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: args})
	if err != nil || again.Draft.SHA256 != first.Draft.SHA256 || !again.Draft.CreatedAt.Equal(first.Draft.CreatedAt.Truncate(time.Millisecond)) {
		t.Errorf("the same revision again: %+v, %v; want the recorded one", again, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cases", id, "drafts", "Cerere", "*.pdf"))
	if len(files) != 1 {
		t.Errorf("blob files = %v, want one", files)
	}
	if pdf, err := os.ReadFile(files[0]); err != nil || !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Errorf("stored file is not a PDF: %v", err)
	}

	// Revision 2's PDF is stored, but its recording never ran.
	if err := blobs.Put(ctx, schemas.DraftPath(id, "Cerere", 2), []byte("%PDF- another draft")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		change func(*schemas.GenerateDraftPDFArgs)
		want   string
	}{
		{func(a *schemas.GenerateDraftPDFArgs) { a.MarkdownContent = "{{party1.fullName}}" },
			"Placeholder substitution failed: Party ID party1 not found or not attached to case"},
		{func(a *schemas.GenerateDraftPDFArgs) { a.MarkdownContent = "{{party0.shoeSize}}" }, "is not a party field"},
		{func(a *schemas.GenerateDraftPDFArgs) { a.MarkdownContent = "{{party0.email}}" }, "Party ID party0 has no email"},
		{func(a *schemas.GenerateDraftPDFArgs) { a.MarkdownContent += " Changed." }, "Revision 1 of Cerere exists with other content; use revision 2"},
		{func(a *schemas.GenerateDraftPDFArgs) { a.MarkdownContent = "{{party0.first-name}}" }, "{{party0.first-name}} is not a placeholder"},
		{func(a *schemas.GenerateDraftPDFArgs) { a.Revision = 2 }, "Revision 2 of Cerere exists with other content; use revision 2"},
		{func(a *schemas.GenerateDraftPDFArgs) { a.DraftName = "../etc" }, "Invalid draft_name"},
		{func(a *schemas.GenerateDraftPDFArgs) { a.Revision = 0 }, "Invalid revision 0"},
	} {
		bad := args
		c.change(&bad)
		got, err := a.RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: bad})
		if err != nil || !strings.Contains(got.ErrorMessage, c.want) {
			t.Errorf("%+v: %q, %v; want %q", bad, got.ErrorMessage, err, c.want)
		}
	}
	drafts, err := listDrafts(ctx, st, id)
	if err != nil || len(drafts) != 1 || drafts[0].DraftID != "Cerere_rev1" || drafts[0].Revision != 1 {
		t.Errorf("drafts = %+v, %v", drafts, err)
	}
}

// TestRecordDraftFailsForGoodOnABadRecord: when case_details.draft_status is not an
// object, recording a draft can never succeed, so the error must not be retried (it
// used to be retried without end, holding the turn and the case).
func TestRecordDraftFailsForGoodOnABadRecord(t *testing.T) {
	ctx := context.Background()
	id := newCase(t, "bad-draft-status")
	if _, err := st.UpdateDetails(ctx, id, 0, "", map[string]any{"draft_status": "not an object"}); err != nil {
		t.Fatal(err)
	}
	a := &Drafts{Cases: st}
	err := a.RecordDraft(ctx, schemas.RecordDraft{CaseID: id, Draft: schemas.RenderedDraft{DraftID: "X_rev1", DraftName: "X", Revision: 1}})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || !appErr.NonRetryable() || appErr.Type() != schemas.ErrInvalidArgs {
		t.Fatalf("RecordDraft on a bad draft_status = %v; want a non-retryable %s", err, schemas.ErrInvalidArgs)
	}
}

// TestDraftCitationsAreRecorded: a draft's checked citations are recorded with its
// revision, and those to check listed on the PDF's last page in the draft's language.
func TestDraftCitationsAreRecorded(t *testing.T) {
	ctx := context.Background()
	blobs, err := blob.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := &Drafts{Cases: st, Parties: st, Blobs: blobs}
	id := newCase(t, "draft-citations")
	cits := []schemas.Citation{
		{Text: "art. 1357 C.civ.", Kind: "article", Status: schemas.CitationVerified, Verified: true, Article: "1357", DocID: "ro/legea-287-2009/art-1357"},
		{Text: "art. 9999 C.civ.", Kind: "article", Status: schemas.CitationNotFound, Article: "9999"},
		{Text: "art. 1350 C.civ.", Kind: "article", Status: schemas.CitationMisquoted, Article: "1350", Passage: "Orice persoană trebuie să își execute obligațiile"},
	}
	in := schemas.RenderDraftInput{GenerateDraftPDFArgs: schemas.GenerateDraftPDFArgs{CaseID: id, DraftName: "Cerere", Revision: 1,
		MarkdownContent: "# Cerere\n\nPotrivit art. 1357 C.civ. și art. 9999 C.civ., pârâtul răspunde."}, Citations: cits}
	got, err := a.RenderDraft(ctx, in)
	if err != nil || got.ErrorMessage != "" {
		t.Fatalf("render: %+v, %v", got, err)
	}
	if want := []string{"art. 9999 C.civ.: not_found", "art. 1350 C.civ.: misquoted"}; !slices.Equal(got.Draft.CitationsToCheck(), want) {
		t.Errorf("to check = %q, want %q", got.Draft.CitationsToCheck(), want)
	}
	if err := a.RecordDraft(ctx, schemas.RecordDraft{CaseID: id, Draft: got.Draft}); err != nil {
		t.Fatal(err)
	}
	drafts, err := listDrafts(ctx, st, id)
	if err != nil || len(drafts) != 1 || len(drafts[0].Citations) != 3 || drafts[0].Citations[1].Status != schemas.CitationNotFound {
		t.Fatalf("recorded = %+v, %v", drafts, err)
	}
	page := citationsToCheckPage(cits, "ro")
	for _, want := range []string{"# Citări de verificat", `- art\. 9999 C\.civ\.: **negăsit**`, "**citat inexact**; textul este: «Orice persoană"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	if citationsToCheckPage(cits[:1], "ro") != "" {
		t.Error("a draft whose citations are all verified has a citations page")
	}
}

// TestRenderDraftReadsOldInput: a render scheduled before drafts were checked carries
// the tool's arguments alone, and still decodes.
func TestRenderDraftReadsOldInput(t *testing.T) {
	old, _ := json.Marshal(schemas.GenerateDraftPDFArgs{CaseID: "c", DraftName: "Cerere", Revision: 2, MarkdownContent: "# x"})
	var in schemas.RenderDraftInput
	if err := json.Unmarshal(old, &in); err != nil || in.DraftName != "Cerere" || in.Revision != 2 || in.CaseID != "c" || in.Citations != nil {
		t.Errorf("decoded %+v, %v", in, err)
	}
}

// TestSameDraftAfterItsCitationsChanged: the same text under the same revision is the
// same revision, though its citation page changed since (a corpus rebuilt).
func TestSameDraftAfterItsCitationsChanged(t *testing.T) {
	ctx := context.Background()
	blobs, err := blob.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := &Drafts{Cases: st, Parties: st, Blobs: blobs}
	id := newCase(t, "draft-recheck")
	args := schemas.GenerateDraftPDFArgs{CaseID: id, DraftName: "Cerere", Revision: 1, MarkdownContent: "# Cerere\n\nart. 9999 C.civ."}
	first, err := a.RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: args,
		Citations: []schemas.Citation{{Text: "art. 9999 C.civ.", Status: schemas.CitationNotFound}}})
	if err != nil || first.ErrorMessage != "" {
		t.Fatalf("render: %+v, %v", first, err)
	}
	if err := a.RecordDraft(ctx, schemas.RecordDraft{CaseID: id, Draft: first.Draft}); err != nil {
		t.Fatal(err)
	}
	again, err := a.RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: args})
	if err != nil || again.ErrorMessage != "" || again.Draft.SHA256 != first.Draft.SHA256 {
		t.Errorf("the same text again: %+v, %v; want the recorded revision", again, err)
	}
}

// TestDraftsDiscloseAI: a draft says AI helped write it (L. 132/2025, art. 13) in its
// case's language, as its text extracted from the PDF shows: by default on an Italian
// case, not on a Romanian one; an organization's admin words it and switches it per
// language.
func TestDraftsDiscloseAI(t *testing.T) {
	ctx := context.Background()
	blobs, err := blob.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := &Drafts{Cases: st, Parties: st, Blobs: blobs, Disclosures: st}
	org := fmt.Sprint("studio-", time.Now().UnixNano())
	caseIn := func(lang string) string {
		id := fmt.Sprint("disclosed-", lang, "-", time.Now().UnixNano())
		if _, err := st.CreateCase(ctx, store.Case{ID: id, UserID: "u", OrgID: org, Language: lang, Phase: schemas.PhaseActive,
			Status: schemas.StatusOpen, Details: store.NewDetails("d")}); err != nil {
			t.Fatal(err)
		}
		return id
	}
	text := func(id string, rev int) string {
		t.Helper()
		got, err := a.RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: schemas.GenerateDraftPDFArgs{
			CaseID: id, DraftName: "Atto", Revision: rev, MarkdownContent: "# Atto\n\nIl conduttore chiede la restituzione del deposito."}})
		if err != nil || got.ErrorMessage != "" {
			t.Fatalf("render: %+v, %v", got, err)
		}
		pdf, err := readBlob(ctx, blobs, got.Draft.Path)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "draft.pdf")
		if err := os.WriteFile(path, pdf, 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("pdftotext", path, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext (apt-get install poppler-utils): %v", err)
		}
		return strings.Join(strings.Fields(string(out)), " ")
	}
	it, ro := caseIn("it"), caseIn("ro")
	if got := text(it, 1); !strings.Contains(got, disclosure.Texts["it"]) {
		t.Errorf("an Italian case's draft = %q, want the disclosure %q", got, disclosure.Texts["it"])
	}
	if got := text(ro, 1); strings.Contains(got, "inteligență artificială") {
		t.Errorf("a Romanian case's draft = %q, want no disclosure by default", got)
	}

	own := "Atto redatto dallo Studio con l'ausilio dell'intelligenza artificiale."
	if err := st.PutDisclosure(ctx, store.Disclosure{Org: org, Texts: map[string]string{"it": own},
		On: map[string]bool{"ro": true}, SetBy: "admin", UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if got := text(it, 2); !strings.Contains(got, own) || strings.Contains(got, disclosure.Texts["it"]) {
		t.Errorf("an Italian case's draft = %q, want the organization's wording %q", got, own)
	}
	if got := text(ro, 2); !strings.Contains(got, disclosure.Texts["ro"]) {
		t.Errorf("a Romanian case's draft = %q, want the disclosure %q once the organization switched it on", got, disclosure.Texts["ro"])
	}
}

// TestDraftUploadFailureNamesItsStep: a PDF the blob store cannot take fails the render
// (retried) with seed 003's kind of text, the step first: "Draft upload failed", which
// the ladder shows the model and the reasoner.
func TestDraftUploadFailureNamesItsStep(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	blobs, err := blob.NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A file where the cases' folder should be: no draft can be stored under it.
	if err := os.WriteFile(filepath.Join(dir, "cases"), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := &Drafts{Cases: st, Parties: st, Blobs: blobs, Disclosures: st}
	id := newCase(t, "upload")
	_, err = a.RenderDraft(ctx, schemas.RenderDraftInput{GenerateDraftPDFArgs: schemas.GenerateDraftPDFArgs{
		CaseID: id, DraftName: "Cerere", Revision: 1, MarkdownContent: "# Cerere\n\nText."}})
	var appErr *temporal.ApplicationError
	if err == nil || !strings.HasPrefix(err.Error(), schemas.FailedDraftUpload+": ") || (errors.As(err, &appErr) && appErr.NonRetryable()) {
		t.Errorf("RenderDraft into a broken blob store = %v, want a retried %q", err, schemas.FailedDraftUpload)
	}
}
