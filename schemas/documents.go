package schemas

import (
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"
)

// DocumentsField is the case_details field that records a case's uploaded documents,
// each under its ID. It is the system's: the model's tools may not write it, so a
// prompt-injected model cannot forge a document. (case_details.documents stays the
// log the model keeps of the documents the conversation mentions: a log is only
// appended to, and a deleted upload must leave no summary behind.)
const DocumentsField = "uploads"

// Document statuses: stored and waiting to be read, read (and summarized), or failed
// with a cause the client reads in the case's language and a reason for support.
const (
	DocReceived = "received"
	DocRead     = "read"
	DocFailed   = "failed"
)

// Why a document failed, as the client is told it in the case's language (the web
// app's doc_cause_* texts, the reading's notice); the Reason beside it is the
// technical detail, in English, for support and the model.
const (
	// CauseUnsupported: a file of no kind Lexflow reads.
	CauseUnsupported = "unsupported"
	// CauseTooLarge: past the reading's limits (pages, text, pixels).
	CauseTooLarge = "too_large"
	// CauseProtected: a PDF locked by a password.
	CauseProtected = "protected"
	// CauseUnreadable: no text could be read in it.
	CauseUnreadable = "unreadable"
	// CauseSlow: reading it took longer than its time limit.
	CauseSlow = "slow"
	// CauseUnpaid: past the pages an unpaid case's documents may have in all.
	CauseUnpaid = "unpaid"
)

// Parts of a document in the blob store, under DocumentBlob: the file as uploaded, and
// its text as read (DocumentText).
const (
	DocOriginal = "original"
	DocText     = "text.json"
)

// docIDRe is what a document ID is: "d" and 32 hex digits of a hash of its case and
// content.
var docIDRe = regexp.MustCompile(`^d[0-9a-f]{32}$`)

// ValidDocumentID reports whether id is a document ID.
func ValidDocumentID(id string) bool { return docIDRe.MatchString(id) }

// DocumentWorkflowID is the ID of the Document workflow that reads one upload.
func DocumentWorkflowID(caseID, docID string) string {
	return CaseWorkflowID(caseID) + ":document:" + docID
}

// DocumentBlob is the blob key of a part of a case's document.
func DocumentBlob(caseID, docID, part string) string {
	return DocumentFolder(caseID, docID) + part
}

// DocumentFolder is the blob folder of a case's document, which its deletion empties.
func DocumentFolder(caseID, docID string) string {
	return CaseBlobPrefix(caseID) + "documents/" + docID + "/"
}

// Document is an uploaded document as case_details.uploads records it. Name is the
// file's name as uploaded, which only the client sees; Title is what the models call
// it (DocumentTitle). The record never holds the text.
type Document struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Title     string `json:"title"`
	Kind      string `json:"kind"`
	MediaType string `json:"media_type"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`
	Status    string `json:"status"`
	// Pages, OCRPages and Skipped count the pages read, those read through OCR, and
	// those left unread past the OCR limit.
	Pages    int    `json:"pages,omitempty"`
	OCRPages int    `json:"ocr_pages,omitempty"`
	Skipped  int    `json:"skipped,omitempty"`
	Summary  string `json:"summary,omitempty"`
	// Cause says why the document failed, one of the Cause* values; Reason says it
	// in technical detail, for support and the model.
	Cause      string     `json:"cause,omitempty"`
	Reason     string     `json:"reason,omitempty"`
	UploadedAt time.Time  `json:"uploaded_at"`
	ReadAt     *time.Time `json:"read_at,omitempty"`
}

// Map is the document as a case_details value.
func (d Document) Map() map[string]any {
	raw, _ := json.Marshal(d)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return m
}

// RecordedDocuments reads case_details.uploads: the documents uploaded and not
// deleted, oldest first.
func RecordedDocuments(details map[string]any) []Document {
	uploads, _ := details[DocumentsField].(map[string]any)
	out := make([]Document, 0, len(uploads))
	for id, v := range uploads {
		e, ok := v.(map[string]any)
		if !ok {
			continue // deleted
		}
		raw, err := json.Marshal(e)
		if err != nil {
			continue
		}
		var d Document
		if json.Unmarshal(raw, &d) != nil {
			continue
		}
		d.ID = id
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Document) int { return cmp.Or(a.UploadedAt.Compare(b.UploadedAt), cmp.Compare(a.ID, b.ID)) })
	return out
}

// DocumentsRead counts, for the allowance before payment, the documents of a case's
// case_details.uploads but the one named except and the pages read of them, deleted
// ones included: a deleted document's entry keeps the number of its pages read
// (DeletedDocument), so that deleting documents gives no allowance back.
func DocumentsRead(details map[string]any, except string) (documents, pages int) {
	uploads, _ := details[DocumentsField].(map[string]any)
	for id, v := range uploads {
		if id == except {
			continue
		}
		documents++
		if e, ok := v.(map[string]any); ok {
			v = e["pages"]
		}
		switch n := v.(type) {
		case float64:
			pages += int(n)
		case int64:
			pages += int(n)
		case int32:
			pages += int(n)
		case int:
			pages += n
		}
	}
	return documents, pages
}

// DeletedDocument is what a deleted document's entry in case_details.uploads keeps:
// the number of its pages read, which DocumentsRead counts.
func DeletedDocument(d Document) any { return d.Pages }

// DocumentText is a document's text as read, page by page, as its text blob stores it
// (sealed with the case's key). It is never pseudonymized: whoever hands it to a model
// pseudonymizes it first (internal/pseudonym), with the case's parties as they are
// then.
type DocumentText struct {
	Pages []string `json:"pages"`
}

// DocumentTitle is what the models call a document instead of its file's name, which
// may hold a name, a CNP or an IBAN that no pattern finds ("buletin_1800101221144.pdf").
func DocumentTitle(id, kind string) string {
	return "Document " + strings.TrimPrefix(id, "d")[:min(8, len(id)-1)] + " (" + strings.ToUpper(kind) + ")"
}

// DocumentInput starts a Document workflow: the case, the document, and the case's
// language for the notice. It names no file and holds no text.
type DocumentInput struct {
	CaseID   string `json:"case_id"`
	DocID    string `json:"doc_id"`
	Language string `json:"language"`
}

// DocumentRead is what reading a document found: its page counts, or why it cannot
// be read (Cause and Reason, as on Document).
type DocumentRead struct {
	Pages    int    `json:"pages"`
	OCRPages int    `json:"ocr_pages"`
	Skipped  int    `json:"skipped"`
	Cause    string `json:"cause,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// DocumentSummary is the model's summary of a document's pseudonymized text.
type DocumentSummary struct {
	Summary string `json:"summary"`
}

// RecordDocument records the end of a document's reading: its counts and summary, or
// the reason it failed.
type RecordDocument struct {
	DocumentInput
	DocumentRead
	Summary string `json:"summary,omitempty"`
}

// DocumentEvent is the body of document.received, document.read and
// document.failed: which document, and how its reading stands. It names no file and
// holds no summary, which the event log would keep after the document is deleted; the
// client lists the documents again.
type DocumentEvent struct {
	DocID    string `json:"doc_id"`
	Status   string `json:"status"`
	Pages    int    `json:"pages,omitempty"`
	OCRPages int    `json:"ocr_pages,omitempty"`
	Cause    string `json:"cause,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Bounds of what read_document returns at once: the model asks again for the pages
// after ToPage.
const (
	MaxReadPages = 10
	MaxReadChars = 12_000
)

// DocumentListing is one document as list_documents shows it to the model: its title,
// never its file name.
type DocumentListing struct {
	DocumentID string `json:"document_id"`
	Title      string `json:"title"`
	Kind       string `json:"kind"`
	Status     string `json:"status"`
	Pages      int    `json:"pages,omitempty"`
	Summary    string `json:"summary,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

// ListDocumentsResult is list_documents' answer.
type ListDocumentsResult struct {
	Status       string            `json:"status"`
	ErrorMessage string            `json:"error_message,omitempty"`
	Documents    []DocumentListing `json:"documents"`
}

// DocumentPage is one page of a document's pseudonymized text.
type DocumentPage struct {
	N    int    `json:"page"`
	Text string `json:"text"`
}

// ReadDocumentResult is read_document's answer: pages FromPage to ToPage of Pages,
// pseudonymized; NextPage, when set, is where the text goes on.
type ReadDocumentResult struct {
	Status       string         `json:"status"`
	ErrorMessage string         `json:"error_message,omitempty"`
	DocumentID   string         `json:"document_id,omitempty"`
	Title        string         `json:"title,omitempty"`
	Pages        int            `json:"pages,omitempty"`
	FromPage     int            `json:"from_page,omitempty"`
	ToPage       int            `json:"to_page,omitempty"`
	Text         []DocumentPage `json:"text,omitempty"`
	NextPage     int            `json:"next_page,omitempty"`
}
