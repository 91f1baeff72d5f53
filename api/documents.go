package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"golang.org/x/text/unicode/norm"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/doctext"
	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// DefaultMaxUpload bounds an upload when LEXFLOW_MAX_UPLOAD_MB is 0.
const DefaultMaxUpload = 20 << 20

// Bounds of an upload's request around its file, and of its file's name.
const (
	multipartSlack = 64 << 10
	maxParts       = 8
	maxFileName    = 200
	readRetryAfter = 30 * time.Second
	// uploadRetryAfter is when an upload refused for want of a slot (uploadSlots)
	// should be sent again.
	uploadRetryAfter = 5 * time.Second
	// uploadReadTime bounds how long an upload's body may take to arrive.
	uploadReadTime = 2 * time.Minute
)

// DocumentView is a document as the API shows it to its client: its record and where
// to download it and read its text.
type DocumentView struct {
	schemas.Document
	Download string `json:"download"`
	Text     string `json:"text"`
}

// DocumentList answers GET /v1/cases/{id}/documents.
type DocumentList struct {
	CaseID    string         `json:"case_id"`
	Documents []DocumentView `json:"documents"`
}

// DocumentTextView answers GET /v1/cases/{id}/documents/{doc}/text: pages of the text
// as read and as the models read it, side by side. NextPage, when set, is where the
// text goes on.
type DocumentTextView struct {
	CaseID   string             `json:"case_id"`
	DocID    string             `json:"doc_id"`
	Pages    int                `json:"pages"`
	Text     []DocumentTextPage `json:"text"`
	NextPage int                `json:"next_page,omitempty"`
}

// DocumentTextPage is one page, as read (Original) and pseudonymized (Model).
type DocumentTextPage struct {
	N        int    `json:"page"`
	Original string `json:"original"`
	Model    string `json:"model"`
}

// maxTextPages bounds the pages one GET of a document's text returns.
const maxTextPages = 20

func documentView(caseID string, d schemas.Document) DocumentView {
	base := "/v1/cases/" + caseID + "/documents/" + d.ID
	return DocumentView{Document: d, Download: base, Text: base + "/text"}
}

// documentID is a document's ID in a case: the same file in the same case is the same
// document, and the ID says nothing of the file to one who does not know the case.
func documentID(caseID string, data []byte) string {
	h := sha256.New()
	h.Write([]byte("lexflow-document\x00" + caseID + "\x00"))
	h.Write(data)
	return "d" + hex.EncodeToString(h.Sum(nil))[:32]
}

// uploadDocument stores a client's document, sealed with the case's key, and starts
// the Document workflow that reads it. The file is refused before anything is stored
// if the case's or the organization's limits are reached, or this process reads
// MaxUploads already or the caller's tenant its TenantUploads (429, before the body
// is read), or the case, before it is paid, holds its allowance (402, see
// checkUnpaidUpload), or it is too large (413) or of a
// kind Lexflow does not read (415). The same file uploaded again to the case is the
// same document (200), unless its reading failed: then it is read again. A case under
// a legal hold takes none (409).
func (h *handlers) uploadDocument(c echo.Context) error {
	err := h.upload(c)
	if err != nil {
		// The refusal is sent at once and the connection closed: the server would
		// otherwise read what is left of the body, up to 256 KiB, before answering,
		// and a client sending it slowly would wait for its own refusal.
		c.Response().Header().Set(echo.HeaderConnection, "close")
	}
	return err
}

// upload is uploadDocument but for the connection's end.
func (h *handlers) upload(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	if cs.Status == schemas.StatusClosed {
		return problemf(errCaseClosed, "the case is closed")
	}
	if cs.Hold != nil { // a legal hold freezes the case's content
		return holdProblem(identity(c), cs.Hold)
	}
	if err := h.notErasing(c, cs.ID, "it takes no documents"); err != nil {
		return err
	}
	ctx := c.Request().Context()
	docs := schemas.RecordedDocuments(cs.Details)
	held := 0
	for _, d := range docs {
		if d.Status != schemas.DocFailed { // a failed one uploaded again takes its own place
			held++
		}
	}
	// Before the body is read: a client past a limit sends its megabytes for nothing.
	if err := h.checkDocumentLimits(ctx, cs, held); err != nil {
		return err
	}
	if err := checkUnpaidUpload(cs); err != nil {
		return err
	}
	who := identity(c)
	release, err := h.uploading.take(who.Org, who.Subject)
	if err != nil {
		return err
	}
	defer release()
	name, data, err := h.readUpload(c)
	if err != nil {
		return err
	}
	// The body may have taken its two minutes: the checks below (a pdfinfo run
	// among them) and the answer get their own time.
	httpserver.Extend(c.Response().Writer, doctext.DefaultLimits.PageTimeout+answerMargin)
	kind, err := doctext.Sniff(data)
	if err != nil {
		return problemf(errUnsupportedMedia, "Lexflow reads PDF, DOCX, plain text (UTF-8), JPEG and PNG files, told by their content: "+err.Error())
	}
	switch err := doctext.Check(ctx, kind, data, doctext.DefaultLimits); {
	case errors.Is(err, doctext.ErrTooLarge):
		return problemf(errTooLarge, err.Error())
	case errors.Is(err, doctext.ErrUnsupported):
		return problemf(errUnsupportedMedia, err.Error())
	case err != nil && !errors.Is(err, doctext.ErrUnreadable): // the read tells the client
		return fmt.Errorf("%w: check the document: %w", errUnavailable, err)
	}
	id := documentID(cs.ID, data)
	for _, d := range docs {
		switch {
		case d.ID == id && d.Status == schemas.DocReceived:
			if err := h.startDocument(ctx, cs, id, enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING); err != nil {
				return err
			}
			fallthrough
		case d.ID == id && d.Status == schemas.DocRead:
			return c.JSON(http.StatusOK, documentView(cs.ID, d))
		}
		// A failed one is read again, below.
	}
	sum := sha256.Sum256(data)
	d := schemas.Document{ID: id, Name: name, Title: schemas.DocumentTitle(id, string(kind)), Kind: string(kind), MediaType: kind.MediaType(),
		Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Status: schemas.DocReceived, UploadedAt: time.Now().UTC()}
	if err := h.Blobs.Put(ctx, schemas.DocumentBlob(cs.ID, id, schemas.DocOriginal), data); err != nil {
		return fmt.Errorf("%w: store the document: %w", errUnavailable, err)
	}
	if _, err := h.Store.UpdateDetails(ctx, cs.ID, 0, "", map[string]any{schemas.DocumentsField + "." + id: d.Map()}); err != nil {
		return fmt.Errorf("%w: record the document: %w", errUnavailable, err)
	}
	body, _ := json.Marshal(schemas.DocumentEvent{DocID: id, Status: d.Status})
	_, err = h.Store.AppendEvents(ctx, cs.ID, store.Event{ID: "document/" + id + "/received/" + strconv.FormatInt(d.UploadedAt.UnixNano(), 10),
		Type: schemas.EventDocumentReceived, At: d.UploadedAt, Body: body})
	if err != nil {
		return fmt.Errorf("%w: publish document.received: %w", errUnavailable, err)
	}
	// A run that still ends a failed reading of this document (it has recorded the
	// failure) must not stand for this one, which would leave the document received.
	if err := h.startDocument(ctx, cs, id, enums.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/cases/"+cs.ID+"/documents/"+id)
	return c.JSON(http.StatusAccepted, documentView(cs.ID, d))
}

// readUpload reads the file part of a multipart upload, refusing it past the size
// limit before reading it all, and returns its name, tidied, and its bytes.
func (h *handlers) readUpload(c echo.Context) (string, []byte, error) {
	limit := h.MaxUploadBytes
	if limit == 0 {
		limit = DefaultMaxUpload
	}
	req := c.Request()
	// A client that sends slowly holds its share of uploading for uploadReadTime at
	// most, which is also longer than the server's read timeout for the rest.
	httpserver.Extend(c.Response().Writer, uploadReadTime)
	tooLarge := problemf(errTooLarge, fmt.Sprintf("a document may be at most %d MB", limit>>20))
	if req.ContentLength > limit+multipartSlack {
		return "", nil, tooLarge
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, limit+multipartSlack)
	mr, err := req.MultipartReader()
	if err != nil {
		return "", nil, problemf(errInvalidInput, "send the document as multipart/form-data, in a part named file")
	}
	for range maxParts {
		part, err := mr.NextPart()
		var maxErr *http.MaxBytesError
		switch {
		case errors.As(err, &maxErr):
			return "", nil, tooLarge
		case errors.Is(err, io.EOF):
			return "", nil, problemf(errInvalidInput, "no part named file")
		case err != nil:
			return "", nil, problemf(errInvalidInput, "the multipart body is malformed")
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, limit+1))
		switch {
		case errors.As(err, &maxErr) || int64(len(data)) > limit:
			return "", nil, tooLarge
		case err != nil:
			return "", nil, problemf(errInvalidInput, "the upload broke off")
		}
		return fileName(part), data, nil
	}
	return "", nil, problemf(errInvalidInput, fmt.Sprintf("no part named file among the first %d", maxParts))
}

// fileName is an uploaded file's name as the client sees it again: its last path
// element, NFC, without control or bidirectional-override characters, at most
// maxFileName characters;
// "document" when nothing is left.
func fileName(part *multipart.Part) string {
	name := part.FileName()
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, norm.NFC.String(name))
	name = strings.TrimSpace(name)
	if r := []rune(name); len(r) > maxFileName {
		name = string(r[:maxFileName])
	}
	if name == "" || name == "." || name == ".." {
		return "document"
	}
	return name
}

// checkDocumentLimits refuses a new document past the case's documents or while the
// organization (or the user, without one) has OrgConcurrentReads documents being read,
// counted by Temporal's visibility across API replicas.
func (h *handlers) checkDocumentLimits(ctx context.Context, cs store.Case, held int) error {
	if h.DocumentsPerCase > 0 && held >= h.DocumentsPerCase {
		return tooMany(fmt.Sprintf("the case holds %d documents, the limit; delete one to upload another", held), time.Hour)
	}
	if h.OrgConcurrentReads == 0 {
		return nil
	}
	q := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running' AND Tenant = '%s'",
		schemas.DocumentWorkflow, schemas.QuoteVisibility(schemas.TenantKey(cs.OrgID, cs.UserID)))
	resp, err := h.Temporal.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: q})
	if err != nil {
		return fmt.Errorf("%w: count documents being read: %w", errUnavailable, err)
	}
	if n := resp.GetCount(); n >= int64(h.OrgConcurrentReads) {
		return tooMany(fmt.Sprintf("%d of your documents are being read, the limit; upload this one when one is done", n), readRetryAfter)
	}
	return nil
}

// startDocument starts the Document workflow that reads a document; conflict says
// what becomes of a run of it already under way.
func (h *handlers) startDocument(ctx context.Context, cs store.Case, docID string, conflict enums.WorkflowIdConflictPolicy) error {
	_, err := h.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       schemas.DocumentWorkflowID(cs.ID, docID),
		TaskQueue:                h.TaskQueue,
		WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: conflict,
		// Reading a document, summary included, ends well within a day.
		WorkflowExecutionTimeout: 24 * time.Hour,
		TypedSearchAttributes:    temporal.NewSearchAttributes(schemas.SATenant.ValueSet(schemas.TenantKey(cs.OrgID, cs.UserID))),
	}, schemas.DocumentWorkflow, schemas.DocumentInput{CaseID: cs.ID, DocID: docID, Language: cs.Language})
	if err != nil {
		return fmt.Errorf("%w: start reading the document: %w", errUnavailable, err)
	}
	return nil
}

// listDocuments lists a case's documents, oldest first.
func (h *handlers) listDocuments(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	docs := schemas.RecordedDocuments(cs.Details)
	out := DocumentList{CaseID: cs.ID, Documents: make([]DocumentView, len(docs))}
	for i, d := range docs {
		out.Documents[i] = documentView(cs.ID, d)
	}
	return c.JSON(http.StatusOK, out)
}

// ownDocument loads the caller's case in the path and its document.
func (h *handlers) ownDocument(c echo.Context) (store.Case, schemas.Document, error) {
	cs, err := h.ownCase(c)
	if err != nil {
		return store.Case{}, schemas.Document{}, err
	}
	id := c.Param("doc")
	if schemas.ValidDocumentID(id) {
		for _, d := range schemas.RecordedDocuments(cs.Details) {
			if d.ID == id {
				return cs, d, nil
			}
		}
	}
	return store.Case{}, schemas.Document{}, problemf(store.ErrNotFound, "no document "+id)
}

// downloadDocument serves a document as it was uploaded, as an attachment: a client's
// file is never shown inline in Lexflow's origin.
func (h *handlers) downloadDocument(c echo.Context) error {
	cs, d, err := h.ownDocument(c)
	if err != nil {
		return err
	}
	// The key comes from the route's case and the checked ID, never from the record.
	r, err := h.Blobs.Open(c.Request().Context(), schemas.DocumentBlob(cs.ID, d.ID, schemas.DocOriginal))
	if errors.Is(err, blob.ErrNotExist) {
		return problemf(store.ErrNotFound, "the document is missing from the blob store")
	}
	if err != nil {
		return fmt.Errorf("%w: open the document: %w", errUnavailable, err)
	}
	defer r.Close()
	c.Response().Header().Set(echo.HeaderContentDisposition, attachment(d.Name))
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return c.Stream(http.StatusOK, doctext.Kind(d.Kind).MediaType(), r)
}

// documentText serves pages of a document's text as read and as the models read it,
// pseudonymized with the case's parties as they are now: ?from=N (1 by default), at
// most maxTextPages pages.
func (h *handlers) documentText(c echo.Context) error {
	cs, d, err := h.ownDocument(c)
	if err != nil {
		return err
	}
	if d.Status != schemas.DocRead {
		return problemf(errConflict, "the document is "+d.Status+": it has no text to show")
	}
	from := 1
	if v := c.QueryParam("from"); v != "" {
		if from, err = strconv.Atoi(v); err != nil || from < 1 || from > d.Pages {
			return problemf(errInvalidInput, fmt.Sprintf("from must be a page from 1 to %d", d.Pages))
		}
	}
	ctx := c.Request().Context()
	r, err := h.Blobs.Open(ctx, schemas.DocumentBlob(cs.ID, d.ID, schemas.DocText))
	if errors.Is(err, blob.ErrNotExist) {
		return problemf(store.ErrNotFound, "the document's text is missing from the blob store")
	}
	if err != nil {
		return fmt.Errorf("%w: open the document's text: %w", errUnavailable, err)
	}
	defer r.Close()
	var text schemas.DocumentText
	if err := json.NewDecoder(r).Decode(&text); err != nil {
		return fmt.Errorf("%w: read the document's text: %w", errUnavailable, err)
	}
	parties, err := h.Store.ListParties(ctx, cs.ID)
	if err != nil {
		return fmt.Errorf("%w: read parties: %w", errUnavailable, err)
	}
	to := min(from+maxTextPages-1, len(text.Pages))
	// The pages up to the last shown mark each value as the whole document would.
	model, err := pseudonym.Pages(ctx, text.Pages[:to], pseudonymParties(parties))
	if err != nil {
		return fmt.Errorf("%w: pseudonymize the pages: %w", errUnavailable, err) // the request's context ended
	}
	out := DocumentTextView{CaseID: cs.ID, DocID: d.ID, Pages: len(text.Pages), Text: []DocumentTextPage{}}
	for n := from; n <= to; n++ {
		out.Text = append(out.Text, DocumentTextPage{N: n, Original: text.Pages[n-1], Model: model[n-1]})
	}
	if to < len(text.Pages) {
		out.NextPage = to + 1
	}
	return c.JSON(http.StatusOK, out)
}

// pseudonymParties is a case's parties as package pseudonym reads them.
func pseudonymParties(parties []store.Party) []pseudonym.Party {
	out := make([]pseudonym.Party, len(parties))
	for i, p := range parties {
		out[i] = pseudonym.Party{ID: p.ID, FirstName: p.FirstName, LastName: p.LastName, CompanyName: p.CompanyName,
			Aliases: p.Aliases, CNP: p.CNP, CUI: p.CUI, Address: p.Address, Email: p.Email}
	}
	return out
}

// deleteDocument removes a document, unless the case is under a legal hold: its reading
// stops, what the models read of it is redacted from the case's events and transcript
// (redactDocument), its file and text leave the blob store, and its record and summary
// leave case_details.
func (h *handlers) deleteDocument(c echo.Context) error {
	cs, d, err := h.ownDocument(c)
	if err != nil {
		return err
	}
	if cs.Hold != nil { // evidence under a legal hold stays
		return holdProblem(identity(c), cs.Hold)
	}
	ctx := c.Request().Context()
	err = h.Temporal.TerminateWorkflow(ctx, schemas.DocumentWorkflowID(cs.ID, d.ID), "", "document deleted by "+identity(c).Subject)
	var notFound *serviceerror.NotFound
	if err != nil && !errors.As(err, &notFound) {
		return fmt.Errorf("%w: stop reading the document: %w", errUnavailable, err)
	}
	// The record goes last: until it does, a DELETE that failed half way (503) finds
	// the document again and finishes the redaction and the deletion.
	if err := h.redactDocument(ctx, cs.ID, d.ID); err != nil {
		return fmt.Errorf("%w: %w", errUnavailable, err)
	}
	if _, err := h.Blobs.DeletePrefix(ctx, schemas.DocumentFolder(cs.ID, d.ID)); err != nil {
		return fmt.Errorf("%w: delete the document: %w", errUnavailable, err)
	}
	if _, err := h.Store.UpdateDetails(ctx, cs.ID, 0, "", map[string]any{schemas.DocumentsField + "." + d.ID: schemas.DeletedDocument(d)}); err != nil {
		return fmt.Errorf("%w: remove the document's record: %w", errUnavailable, err)
	}
	return c.NoContent(http.StatusNoContent)
}
