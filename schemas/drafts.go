package schemas

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// DraftResult is generate_draft_pdf's return shape (seed 003).
type DraftResult struct {
	Status       string `json:"status"`
	PDFPath      string `json:"pdf_gcs_path,omitempty"`
	DraftID      string `json:"draft_firestore_id,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
	// CitationsToCheck are the draft's citations the corpus disproves, finds
	// misquoted or repealed, "text: status", for the model to tell the client; the
	// PDF lists them on its last page.
	CitationsToCheck []string `json:"citations_to_check,omitempty"`
}

// RenderedDraft is a draft revision stored in the blob store, as recorded in
// case_details.draft_status under its ID.
type RenderedDraft struct {
	DraftID   string    `json:"draft_id"`
	DraftName string    `json:"draft_name"`
	Revision  int       `json:"revision"`
	Path      string    `json:"path"`
	SHA256    string    `json:"sha256"`
	Size      int64     `json:"size"`
	CreatedAt time.Time `json:"created_at"`
	// ContentSHA256 is the digest of the filled-in text, which says whether a render
	// is the same revision again; empty for revisions recorded before it was kept.
	ContentSHA256 string `json:"content_sha256,omitempty"`
	// Citations are the draft's citations as checked before rendering; none for a
	// draft rendered before drafts were checked.
	Citations []Citation `json:"citations,omitempty"`
}

// CitationsToCheck lists the draft's citations a reader must look at again (see
// Citation.NeedsReview), "text: status".
func (d RenderedDraft) CitationsToCheck() []string {
	var out []string
	for _, c := range d.Citations {
		if c.NeedsReview() {
			out = append(out, c.Text+": "+c.Status)
		}
	}
	return out
}

// RenderDraftInput is the RenderDraft activity's input: the tool's arguments and the
// draft's checked citations. Its JSON is the arguments' with one field more, so a
// render scheduled before drafts were checked decodes into it.
type RenderDraftInput struct {
	GenerateDraftPDFArgs
	Citations []Citation `json:"citations,omitempty"`
}

// RenderDraftResult is the RenderDraft activity's answer: the stored draft, or the
// error text for the model when the draft itself is at fault.
type RenderDraftResult struct {
	Draft        RenderedDraft `json:"draft"`
	ErrorMessage string        `json:"error_message,omitempty"`
}

// RecordDraft records a rendered draft in case_details.draft_status.
type RecordDraft struct {
	CaseID string        `json:"case_id"`
	Draft  RenderedDraft `json:"draft"`
}

// DraftPath is where a draft revision's PDF is stored in the blob store.
func DraftPath(caseID, name string, revision int) string {
	return CaseBlobPrefix(caseID) + fmt.Sprintf("drafts/%s/rev-%d.pdf", name, revision)
}

// DraftID is a draft revision's key in case_details.draft_status.
func DraftID(name string, revision int) string { return fmt.Sprintf("%s_rev%d", name, revision) }

// RecordedDrafts returns the draft revisions recorded in case_details.draft_status, by
// name and revision.
func RecordedDrafts(details map[string]any) []RenderedDraft {
	status, _ := details["draft_status"].(map[string]any)
	out := make([]RenderedDraft, 0, len(status))
	for id, v := range status {
		e, _ := v.(map[string]any)
		d := RenderedDraft{DraftID: id}
		d.DraftName, _ = e["draft_name"].(string)
		d.Path, _ = e["path"].(string)
		d.SHA256, _ = e["sha256"].(string)
		d.ContentSHA256, _ = e["content_sha256"].(string)
		d.Revision, d.Size = int(number(e["revision"])), number(e["size"])
		d.CreatedAt, _ = e["created_at"].(time.Time)
		d.Citations = recordedCitations(e["citations"])
		out = append(out, d)
	}
	slices.SortFunc(out, func(x, y RenderedDraft) int {
		return cmp.Or(cmp.Compare(x.DraftName, y.DraftName), cmp.Compare(x.Revision, y.Revision))
	})
	return out
}

// recordedCitations reads the citations recorded with a draft revision: a list of
// {text, kind, status, refers_to, article, doc_id}.
func recordedCitations(v any) []Citation {
	list, _ := v.([]any)
	out := make([]Citation, 0, len(list))
	for _, item := range list {
		m, _ := item.(map[string]any)
		c := Citation{}
		c.Text, _ = m["text"].(string)
		c.Kind, _ = m["kind"].(string)
		c.Status, _ = m["status"].(string)
		c.RefersTo, _ = m["refers_to"].(string)
		c.Article, _ = m["article"].(string)
		c.DocID, _ = m["doc_id"].(string)
		c.Verified = c.Status == CitationVerified
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// RecordedCitation is how a draft revision's citation is stored in draft_status.
func RecordedCitation(c Citation) map[string]any {
	return map[string]any{"text": c.Text, "kind": c.Kind, "status": c.Status, "refers_to": c.RefersTo, "article": c.Article, "doc_id": c.DocID}
}

// number reads a stored number, whatever integer or float type the database gave.
func number(v any) int64 {
	switch n := v.(type) {
	case int32:
		return int64(n)
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return 0
}
