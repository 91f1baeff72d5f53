package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/doctext"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// storedDocument records a read document of pages in a case, as an upload and its
// reading leave it.
func storedDocument(t *testing.T, a *Documents, caseID, docID string, pages []string) {
	t.Helper()
	ctx := context.Background()
	raw, _ := json.Marshal(schemas.DocumentText{Pages: pages})
	if err := a.Blobs.Put(ctx, schemas.DocumentBlob(caseID, docID, schemas.DocText), raw); err != nil {
		t.Fatal(err)
	}
	d := schemas.Document{ID: docID, Name: "lease.docx", Title: "lease.docx", Kind: "docx", Status: schemas.DocRead, Pages: len(pages), UploadedAt: time.Now()}
	if _, err := st.UpdateDetails(ctx, caseID, 0, "", map[string]any{schemas.DocumentsField + "." + docID: d.Map()}); err != nil {
		t.Fatal(err)
	}
}

// TestReadDocumentBoundsWhatTheModelAsks: read_document answers pages of its own
// case's documents only, pseudonymized with the parties added since the reading,
// at most ten pages and 12,000 characters at once, and refuses with a reason what a
// steered model asks beyond that.
func TestReadDocumentBoundsWhatTheModelAsks(t *testing.T) {
	ctx := context.Background()
	blobs, err := blob.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := &Documents{Cases: st, Parties: st, Blobs: blobs}
	id, other := newCase(t, "documents"), newCase(t, "documents-other")
	doc := "d" + strings.Repeat("a", 32)
	pages := make([]string, 25)
	for i := range pages {
		pages[i] = fmt.Sprintf("Pagina %d. Chiriașul Ion Popescu, tel. 0722 123 456.", i+1)
	}
	pages[20] = strings.Repeat("x", 20_000)
	storedDocument(t, a, id, doc, pages)
	if _, err := st.AddParty(ctx, store.Party{CaseID: id, FirstName: "Ion", LastName: "Popescu"}); err != nil {
		t.Fatal(err)
	}

	r, err := a.ReadDocument(ctx, schemas.ReadDocumentArgs{CaseID: id, DocumentID: doc})
	if err != nil || r.Status != schemas.ResultSuccess || r.FromPage != 1 || r.ToPage != 10 || r.NextPage != 11 || len(r.Text) != 10 {
		t.Fatalf("the first pages: %+v, %v", r, err)
	}
	if want := "Pagina 1. Chiriașul {{party0.fullName}}, tel. {{doc.phone.1}}."; r.Text[0].Text != want {
		t.Errorf("page 1 = %q, want %q", r.Text[0].Text, want)
	}
	r, _ = a.ReadDocument(ctx, schemas.ReadDocumentArgs{CaseID: id, DocumentID: doc, FromPage: 18, ToPage: 25})
	if r.ToPage != 20 || r.NextPage != 21 {
		t.Errorf("pages 18-25 around a long page: to %d, next %d; want to 20, next 21", r.ToPage, r.NextPage)
	}
	r, _ = a.ReadDocument(ctx, schemas.ReadDocumentArgs{CaseID: id, DocumentID: doc, FromPage: 21})
	if len(r.Text) != 1 || len([]rune(r.Text[0].Text)) > schemas.MaxReadChars+1 || r.NextPage != 22 {
		t.Errorf("a page longer than the bound: %d pages, next %d", len(r.Text), r.NextPage)
	}

	for _, tc := range []struct {
		name string
		args schemas.ReadDocumentArgs
		want string
	}{
		{"another case's document", schemas.ReadDocumentArgs{CaseID: other, DocumentID: doc}, "No document"},
		{"a path for an ID", schemas.ReadDocumentArgs{CaseID: id, DocumentID: "../../cases/x/documents/d/text.json"}, "Invalid document_id"},
		{"past the end", schemas.ReadDocumentArgs{CaseID: id, DocumentID: doc, FromPage: 26}, "past its end"},
		{"backwards", schemas.ReadDocumentArgs{CaseID: id, DocumentID: doc, FromPage: 5, ToPage: 2}, "before from_page"},
	} {
		r, err := a.ReadDocument(ctx, tc.args)
		if err != nil || r.Status != schemas.ResultError || !strings.Contains(r.ErrorMessage, tc.want) || len(r.Text) > 0 {
			t.Errorf("%s: %+v, %v; want an error saying %q", tc.name, r, err, tc.want)
		}
	}

	list, err := a.ListDocuments(ctx, schemas.ListDocumentsArgs{CaseID: other})
	if err != nil || len(list.Documents) != 0 {
		t.Errorf("another case lists %+v, %v", list, err)
	}
}

// TestCaseDetailsLeaveUploadsOut: get_case_details does not show the models the
// uploads' records, which name the files as the client named them.
func TestCaseDetailsLeaveUploadsOut(t *testing.T) {
	blobs, err := blob.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := newCase(t, "details-uploads")
	storedDocument(t, &Documents{Cases: st, Parties: st, Blobs: blobs}, id, "d"+strings.Repeat("b", 32), []string{"text"})
	r, err := (&Cases{Store: st}).GetCaseDetails(context.Background(), schemas.GetCaseDetailsArgs{CaseID: id})
	if err != nil || r.Status != schemas.ResultSuccess || r.CaseDetails["summary"] == nil {
		t.Fatalf("details: %+v, %v", r, err)
	}
	if _, ok := r.CaseDetails[schemas.DocumentsField]; ok {
		t.Errorf("the models see the uploads' records: %v", r.CaseDetails[schemas.DocumentsField])
	}
}

// TestSplitPage: a long DOCX or text is cut at line breaks into pages of at most the
// bound, losing nothing but the breaks it cuts at.
func TestSplitPage(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "Art. %d. Chiria se plătește în prima zi a lunii.\n", i+1)
	}
	pages := splitPage(b.String(), pageChars)
	if len(pages) < 4 {
		t.Fatalf("%d pages", len(pages))
	}
	for i, p := range pages {
		if n := len([]rune(p)); n > pageChars || i < len(pages)-1 && !strings.HasSuffix(p, "lunii.") {
			t.Errorf("page %d: %d characters, ends %q", i+1, n, p[max(0, len(p)-10):])
		}
	}
	if got := strings.Join(pages, "\n"); strings.TrimRight(got, "\n") != strings.TrimRight(b.String(), "\n") {
		t.Error("the pages do not make the text again")
	}
	if got := splitPage(strings.Repeat("x", 9000), pageChars); len(got) != 3 || len(got[0]) != pageChars {
		t.Errorf("a text without breaks: %d pages", len(got))
	}
}

// TestAttackSplitPageLinear (issue 36, finding 3): cutting a text into pages copies
// nothing of it: a 41 KB DOCX of 16 MB of text took 111 s when each page converted
// the rest of the text to runes. Counted in bytes allocated (the pages' list), not
// timed, so that a loaded machine cannot fail it; BenchmarkSplitPage times it.
func TestAttackSplitPageLinear(t *testing.T) {
	text := strings.Repeat("Chiriașul plătește în ziua întâi.\n", (2<<20)/36)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pages := splitPage(text, pageChars)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(text))/8 {
		t.Errorf("cutting %d bytes into %d pages allocated %d bytes", len(text), len(pages), got)
	}
}

// BenchmarkSplitPage times cutting 1 and 2 MB of text into pages: the same time per
// MB, as the cut is linear.
func BenchmarkSplitPage(b *testing.B) {
	for _, mb := range []int{1, 2} {
		text := strings.Repeat("Chiriașul plătește în ziua întâi.\n", (mb<<20)/36)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				splitPage(text, pageChars)
			}
		})
	}
}

// TestDocumentNoticeByCause: a failed document is told to the client by its cause, in
// the case's language, never by its technical reason; every cause has its sentence in
// every language.
func TestDocumentNoticeByCause(t *testing.T) {
	causes := []string{schemas.CauseUnsupported, schemas.CauseTooLarge, schemas.CauseProtected,
		schemas.CauseUnreadable, schemas.CauseSlow, schemas.CauseUnpaid}
	const reason = "document unreadable: pdftotext: exit status 1: Syntax Error (12)"
	for lang, w := range documentNotices {
		for _, c := range causes {
			if w.failed[c] == "" {
				t.Errorf("%s: no notice for cause %q", lang, c)
			}
			got := documentNotice(lang, schemas.Document{Status: schemas.DocFailed, Cause: c, Reason: reason})
			if strings.Contains(got, "pdftotext") || strings.Contains(got, "%!") {
				t.Errorf("%s/%s: %q", lang, c, got)
			}
		}
	}
	ro := documentNotice("ro", schemas.Document{Status: schemas.DocFailed, Cause: schemas.CauseUnpaid})
	if !strings.Contains(ro, fmt.Sprint(schemas.UnpaidPages)+" pagini") {
		t.Errorf("ro unpaid: %q", ro)
	}
	// A document recorded before causes existed is told as unreadable.
	if got := documentNotice("it", schemas.Document{Status: schemas.DocFailed, Reason: reason}); got != documentNotices["it"].failed[schemas.CauseUnreadable] {
		t.Errorf("no cause: %q", got)
	}
}

func TestCauseOf(t *testing.T) {
	for err, want := range map[error]string{
		fmt.Errorf("%w: %w", doctext.ErrUnreadable, doctext.ErrProtected):           schemas.CauseProtected,
		fmt.Errorf("%w: the PDF has 900 pages, more than 500", doctext.ErrTooLarge): schemas.CauseTooLarge,
		fmt.Errorf("%w: kind %q", doctext.ErrUnsupported, "exe"):                    schemas.CauseUnsupported,
		fmt.Errorf("%w: no text could be read in the image", doctext.ErrUnreadable): schemas.CauseUnreadable,
	} {
		if got := causeOf(err); got != want {
			t.Errorf("causeOf(%v) = %q, want %q", err, got, want)
		}
	}
}
