package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/doctext"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Documents are the activities of the Document workflow, which reads a client's
// upload, and of the list_documents, read_document and rag_search tools. Only ExtractDocument
// reads the file, and the text it stores is the text as read; every reader for a model
// pseudonymizes it with the case's parties as they are then, so a party added after
// the upload is replaced too. Nothing these activities take or return holds a party's
// value: the workflow's history sees IDs, counts and the pseudonymized summary.
type Documents struct {
	Cases   store.Cases
	Parties store.Parties
	Blobs   blob.Store
	// Transcripts are the cases' messages, which rag_search searches beside the
	// documents.
	Transcripts store.Transcripts
	// Model is the assistant's endpoint, which summarizes; Prompts its system prompt.
	Model   *llm.Client
	Prompts *SystemPrompts
	Meter   *Meter
	Events  *Publisher
	// Limits bound a read; doctext.DefaultLimits when zero.
	Limits doctext.Limits
	// Now stamps a read; time.Now when nil.
	Now func() time.Time
}

// errDocumentGone is the error of a step whose document was deleted while it ran.
func errDocumentGone(id string) error {
	return temporal.NewNonRetryableApplicationError("document "+id+" was deleted", schemas.ErrInvalidArgs, nil)
}

// document returns a case's recorded document, and whether it is recorded.
func (a *Documents) document(ctx context.Context, caseID, docID string) (schemas.Document, int64, bool, error) {
	c, err := a.Cases.GetCase(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		return schemas.Document{}, 0, false, nil
	}
	if err != nil {
		return schemas.Document{}, 0, false, err
	}
	for _, d := range schemas.RecordedDocuments(c.Details) {
		if d.ID == docID {
			return d, c.Version, true, nil
		}
	}
	return schemas.Document{}, c.Version, false, nil
}

// Bounds of a document's stored text: a DOCX or a text file is cut into pages of
// about pageChars characters at line breaks, and at most maxStoredText bytes are kept
// (the pages after are counted as skipped), so that every read of it is quick.
const (
	pageChars     = 4000
	maxStoredText = 2 << 20
)

// maxReadTime bounds one reading, below extractOptions' StartToCloseTimeout: a document
// that takes longer is refused as too long to read, not tried again.
const maxReadTime = 45 * time.Minute

// ExtractDocument reads an upload's text and stores it, sealed with the case's key,
// beside the file. For a case yet to be paid it reads no more pages than the case has
// left of schemas.UnpaidPages, and a document that would take more is not read. A document that cannot be read (a password, a blank scan, a page
// or the whole read past its time) is an answer with its reason; the store's failures,
// and a reader killed from outside, are retried. A document deleted while it was read
// leaves no text behind.
func (a *Documents) ExtractDocument(ctx context.Context, in schemas.DocumentInput) (schemas.DocumentRead, error) {
	d, _, ok, err := a.document(ctx, in.CaseID, in.DocID)
	if err != nil {
		return schemas.DocumentRead{}, err
	}
	if !ok {
		return schemas.DocumentRead{}, errDocumentGone(in.DocID)
	}
	data, err := readBlob(ctx, a.Blobs, schemas.DocumentBlob(in.CaseID, in.DocID, schemas.DocOriginal))
	if errors.Is(err, blob.ErrNotExist) {
		return schemas.DocumentRead{}, errDocumentGone(in.DocID)
	}
	if err != nil {
		return schemas.DocumentRead{}, err
	}
	lim := a.Limits
	if lim == (doctext.Limits{}) {
		lim = doctext.DefaultLimits
	}
	left, unpaid, err := a.unpaidPagesLeft(ctx, in.CaseID, in.DocID)
	if err != nil {
		return schemas.DocumentRead{}, err
	}
	if unpaid {
		var ok bool
		if lim, ok = unpaidLimits(lim, left); !ok {
			return unpaidRefusal(left, nil), nil
		}
	}
	// The heartbeat runs until the text is stored: a worker that stops sending it is
	// taken for lost and the read runs elsewhere. A heartbeat the server no longer
	// takes (the attempt timed out, the workflow ended) cancels ctx, and the read
	// stops where it is.
	defer heartbeat(ctx)()
	readCtx, cancel := context.WithTimeout(ctx, maxReadTime)
	doc, err := doctext.Read(readCtx, doctext.Kind(d.Kind), data, lim)
	timedOut := errors.Is(readCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	cancel()
	switch {
	case ctx.Err() != nil:
		return schemas.DocumentRead{}, fmt.Errorf("read the document: %w", ctx.Err())
	case timedOut:
		return schemas.DocumentRead{Cause: schemas.CauseSlow, Reason: fmt.Sprintf("reading it took longer than %s", maxReadTime)}, nil
	case unpaid && errors.Is(err, doctext.ErrTooLarge):
		return unpaidRefusal(left, err), nil
	case errors.Is(err, doctext.ErrUnreadable) || errors.Is(err, doctext.ErrTooLarge) || errors.Is(err, doctext.ErrUnsupported):
		return schemas.DocumentRead{Cause: causeOf(err), Reason: err.Error()}, nil
	case err != nil:
		return schemas.DocumentRead{}, err
	}
	read := schemas.DocumentRead{Skipped: doc.Skipped}
	var text schemas.DocumentText
	size := 0
	for _, p := range doc.Pages {
		parts := []string{p.Text}
		if doc.Kind == doctext.DOCX || doc.Kind == doctext.Text {
			parts = splitPage(p.Text, pageChars)
		}
		for _, part := range parts {
			if size += len(part); size > maxStoredText {
				read.Skipped++
				continue
			}
			text.Pages = append(text.Pages, part)
			if p.OCR {
				read.OCRPages++
			}
		}
	}
	read.Pages = len(text.Pages)
	if unpaid && read.Pages > left {
		return unpaidRefusal(left, nil), nil
	}
	raw, err := json.Marshal(text)
	if err != nil {
		return schemas.DocumentRead{}, err
	}
	if err := a.Blobs.Put(ctx, schemas.DocumentBlob(in.CaseID, in.DocID, schemas.DocText), raw); err != nil {
		return schemas.DocumentRead{}, fmt.Errorf("store the document's text: %w", err)
	}
	// Deleted meanwhile: its deletion emptied the folder before this text came.
	if _, _, ok, err := a.document(ctx, in.CaseID, in.DocID); err == nil && !ok {
		if _, err := a.Blobs.DeletePrefix(ctx, schemas.DocumentFolder(in.CaseID, in.DocID)); err != nil {
			return schemas.DocumentRead{}, err
		}
		return schemas.DocumentRead{}, errDocumentGone(in.DocID)
	}
	return read, nil
}

// splitPage cuts a long text into pages of at most about n characters, at line breaks
// where it can. It reads each character once or twice, whatever the text's length.
func splitPage(text string, n int) []string {
	var pages []string
	for {
		cut, count := 0, 0
		for cut < len(text) && count < n {
			_, size := utf8.DecodeRuneInString(text[cut:])
			cut += size
			count++
		}
		if cut == len(text) {
			return append(pages, text)
		}
		if nl := strings.LastIndexByte(text[:cut], '\n'); nl > cut/2 {
			cut = nl + 1
		}
		pages = append(pages, strings.TrimRight(text[:cut], "\n"))
		text = text[cut:]
	}
}

// summaryChars bounds the text of a document the summarizing model reads: a longer
// document is summarized from its first pages, and the message says how many of its
// pages those are.
const summaryChars = 60_000

// SummarizeDocument asks the assistant model for a summary of the document's first
// pages (summaryChars characters, schemas.UnpaidSummaryChars before the case is paid),
// pseudonymized, charged to the case's budgets. A model that refuses, or a
// budget used up, leaves the document without a summary; a transient failure is
// retried.
func (a *Documents) SummarizeDocument(ctx context.Context, in schemas.DocumentInput) (schemas.DocumentSummary, error) {
	stop := heartbeat(ctx)
	defer stop()
	d, _, ok, err := a.document(ctx, in.CaseID, in.DocID)
	if err != nil {
		return schemas.DocumentSummary{}, err
	}
	if !ok {
		return schemas.DocumentSummary{}, errDocumentGone(in.DocID)
	}
	if a.Model == nil {
		return schemas.DocumentSummary{}, nil
	}
	chars := summaryChars
	if _, unpaid, err := a.unpaidPagesLeft(ctx, in.CaseID, in.DocID); err != nil {
		return schemas.DocumentSummary{}, err
	} else if unpaid {
		chars = schemas.UnpaidSummaryChars
	}
	pages, total, err := a.pseudonymized(ctx, in.CaseID, in.DocID, math.MaxInt, chars)
	if err != nil {
		return schemas.DocumentSummary{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Document: %s\nPages: %d\n", d.Title, total)
	if len(pages) < total {
		fmt.Fprintf(&b, "Shown: the first %d pages\n", len(pages))
	}
	for i, p := range pages {
		fmt.Fprintf(&b, "\n--- page %d ---\n%s\n", i+1, p)
	}
	system, err := a.Prompts.System(ctx, schemas.ModelDocument, prompts.Context{CaseID: in.CaseID, Language: in.Language})
	if err != nil {
		return schemas.DocumentSummary{}, err
	}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgSystem, Content: system}, {Role: schemas.MsgUser, Content: b.String()}}
	resp, err := a.Meter.Complete(ctx, a.Model, msgs, nil, nil)
	if err != nil && llm.Retryable(err) && !isBudgetExhausted(err) {
		return schemas.DocumentSummary{}, err
	}
	if err != nil {
		return schemas.DocumentSummary{}, nil
	}
	return schemas.DocumentSummary{Summary: strings.TrimSpace(resp.Content)}, nil
}

// RecordDocument records how the document's reading ended in case_details.uploads,
// unless the document was deleted meanwhile, and publishes document.read or
// document.failed with a notice in the case's language.
func (a *Documents) RecordDocument(ctx context.Context, in schemas.RecordDocument) error {
	d, version, ok, err := a.document(ctx, in.CaseID, in.DocID)
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	now := a.now()
	d.Pages, d.OCRPages, d.Skipped, d.Summary, d.Cause, d.Reason, d.ReadAt = in.Pages, in.OCRPages, in.Skipped, in.Summary, in.Cause, in.Reason, &now
	d.Status = schemas.DocRead
	if in.Reason != "" {
		d.Status = schemas.DocFailed
	}
	// Against the version read: a deletion in between wins, and this step reads again.
	_, err = a.Cases.UpdateDetails(ctx, in.CaseID, version, opID(ctx), map[string]any{schemas.DocumentsField + "." + in.DocID: d.Map()})
	if errors.Is(err, store.ErrVersionConflict) {
		return fmt.Errorf("record the document: %w", err)
	}
	if err != nil {
		return permanent(fmt.Errorf("record the document: %w", err))
	}
	typ := schemas.EventDocumentRead
	if d.Status == schemas.DocFailed {
		typ = schemas.EventDocumentFailed
	}
	err = a.Events.Publish(ctx, typ, typ, "", schemas.DocumentEvent{DocID: d.ID, Status: d.Status,
		Pages: d.Pages, OCRPages: d.OCRPages, Cause: d.Cause, Reason: d.Reason})
	if err != nil {
		return err
	}
	return a.Events.Publish(ctx, schemas.EventNotice, schemas.EventNotice, "", schemas.NoticeEvent{Role: schemas.RecordAssistant,
		Text: documentNotice(in.Language, d)})
}

// pseudonymized returns a document's first pages as the models read them: its stored
// text pseudonymized with the case's parties, and how many pages it has. It takes at
// most maxPages pages, and no page once maxChars characters are taken. Pseudonymizing the first pages marks each
// value as pseudonymizing the whole document would, since markers count values in the
// order they first appear.
func (a *Documents) pseudonymized(ctx context.Context, caseID, docID string, maxPages, maxChars int) (pages []string, total int, err error) {
	raw, err := readBlob(ctx, a.Blobs, schemas.DocumentBlob(caseID, docID, schemas.DocText))
	if errors.Is(err, blob.ErrNotExist) {
		return nil, 0, errDocumentGone(docID)
	}
	if err != nil {
		return nil, 0, err
	}
	var text schemas.DocumentText
	if err := json.Unmarshal(raw, &text); err != nil {
		return nil, 0, fmt.Errorf("the document's text: %w", err)
	}
	parties, err := a.Parties.ListParties(ctx, caseID)
	if err != nil {
		return nil, 0, err
	}
	n, seen := 0, 0
	for n < len(text.Pages) && n < maxPages && seen < maxChars {
		seen += utf8.RuneCountInString(text.Pages[n])
		n++
	}
	pages, err = pseudonym.Pages(ctx, text.Pages[:n], pseudonymParties(parties))
	return pages, len(text.Pages), err
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

// ListDocuments is the list_documents tool.
func (a *Documents) ListDocuments(ctx context.Context, args schemas.ListDocumentsArgs) (schemas.ListDocumentsResult, error) {
	c, err := a.Cases.GetCase(ctx, args.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return schemas.ListDocumentsResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	}
	if err != nil {
		return schemas.ListDocumentsResult{}, err
	}
	docs := schemas.RecordedDocuments(c.Details)
	out := schemas.ListDocumentsResult{Status: schemas.ResultSuccess, Documents: make([]schemas.DocumentListing, 0, len(docs))}
	for _, d := range docs {
		out.Documents = append(out.Documents, schemas.DocumentListing{DocumentID: d.ID, Title: d.Title,
			Kind: d.Kind, Status: d.Status, Pages: d.Pages, Summary: d.Summary, Reason: d.Reason})
	}
	return out, nil
}

// ReadDocument is the read_document tool: a page range of a document's pseudonymized
// text, at most schemas.MaxReadPages pages and schemas.MaxReadChars characters.
func (a *Documents) ReadDocument(ctx context.Context, args schemas.ReadDocumentArgs) (schemas.ReadDocumentResult, error) {
	refuse := func(format string, v ...any) (schemas.ReadDocumentResult, error) {
		return schemas.ReadDocumentResult{Status: schemas.ResultError, ErrorMessage: fmt.Sprintf(format, v...)}, nil
	}
	if !schemas.ValidDocumentID(args.DocumentID) {
		return refuse("Invalid document_id %q: use a document_id that list_documents gives", clip(args.DocumentID, 80))
	}
	d, _, ok, err := a.document(ctx, args.CaseID, args.DocumentID)
	if err != nil {
		return schemas.ReadDocumentResult{}, err
	}
	switch {
	case !ok:
		return refuse("No document %s in this case: list_documents gives the case's documents", args.DocumentID)
	case d.Status == schemas.DocReceived:
		return refuse("Document %s is still being read; ask again in a moment", args.DocumentID)
	case d.Status == schemas.DocFailed:
		return refuse("Document %s could not be read: %s. Ask the client to upload it again, as a clearer scan or an unprotected PDF", args.DocumentID, d.Reason)
	}
	from := max(args.FromPage, 1)
	to := args.ToPage
	if to == 0 || to > from+schemas.MaxReadPages-1 {
		to = from + schemas.MaxReadPages - 1
	}
	if to < from {
		return refuse("to_page %d is before from_page %d", to, from)
	}
	if from > d.Pages {
		return refuse("Document %s has %d pages; from_page %d is past its end", args.DocumentID, d.Pages, from)
	}
	to = min(to, d.Pages)
	pages, _, err := a.pseudonymized(ctx, args.CaseID, args.DocumentID, to, math.MaxInt)
	if err != nil {
		return schemas.ReadDocumentResult{}, err
	}
	out := schemas.ReadDocumentResult{Status: schemas.ResultSuccess, DocumentID: d.ID, Title: d.Title,
		Pages: d.Pages, FromPage: from}
	chars := 0
	for n := from; n <= min(to, len(pages)); n++ {
		text := pages[n-1]
		if left := schemas.MaxReadChars - chars; utf8.RuneCountInString(text) > left {
			if n > from {
				out.NextPage = n
				break
			}
			text = clip(text, left) // one page longer than the bound: its beginning
		}
		out.Text = append(out.Text, schemas.DocumentPage{N: n, Text: text})
		out.ToPage, chars = n, chars+utf8.RuneCountInString(text)
	}
	if out.NextPage == 0 && out.ToPage < d.Pages {
		out.NextPage = out.ToPage + 1
	}
	return out, nil
}

// causeOf is the Cause of a doctext error that is the document's fault.
func causeOf(err error) string {
	switch {
	case errors.Is(err, doctext.ErrProtected):
		return schemas.CauseProtected
	case errors.Is(err, doctext.ErrTooLarge):
		return schemas.CauseTooLarge
	case errors.Is(err, doctext.ErrUnsupported):
		return schemas.CauseUnsupported
	}
	return schemas.CauseUnreadable
}

// documentNotice tells the client in the case's language how the reading ended. It
// names no file and quotes no summary, which the event log would keep after the
// document is deleted (the case's documents show both), and no technical reason,
// which is for support: a failure is told by its cause.
func documentNotice(lang string, d schemas.Document) string {
	w, ok := documentNotices[lang]
	if !ok {
		w = documentNotices["en"]
	}
	if d.Status != schemas.DocFailed {
		return fmt.Sprintf(w.read, d.Pages)
	}
	why, ok := w.failed[d.Cause]
	if !ok {
		why = w.failed[schemas.CauseUnreadable]
	}
	if d.Cause == schemas.CauseUnpaid {
		why = fmt.Sprintf(why, schemas.UnpaidPages)
	}
	return why
}

// documentWords are a language's notices of a document read and, by cause, of one
// that failed.
type documentWords struct {
	read   string
	failed map[string]string
}

var documentNotices = map[string]documentWords{
	"en": {read: "A document you uploaded has been read (%d pages); its summary is with the case's documents.",
		failed: map[string]string{
			schemas.CauseUnsupported: "A document you uploaded could not be read: Lexflow does not read files of its kind. You can upload it as a PDF, a Word (DOCX) file, a text file or a photo.",
			schemas.CauseTooLarge:    "A document you uploaded could not be read: it is larger than Lexflow reads at once. You can upload the parts that matter as separate files.",
			schemas.CauseProtected:   "A document you uploaded could not be read: it is protected by a password. You can upload it again as a PDF without a password.",
			schemas.CauseUnreadable:  "A document you uploaded could not be read: no text could be found in it. You can upload it again, as a clearer scan or a PDF without a password.",
			schemas.CauseSlow:        "A document you uploaded could not be read in the time allowed. You can upload it again, perhaps split into smaller files.",
			schemas.CauseUnpaid:      "A document you uploaded was not read: before the case is paid, Lexflow reads %d pages of its documents in all. Pay for the case and upload it again.",
		}},
	"ro": {read: "Un act pe care l-ați încărcat a fost citit (%d pagini); rezumatul lui este în lista actelor dosarului.",
		failed: map[string]string{
			schemas.CauseUnsupported: "Un act pe care l-ați încărcat nu a putut fi citit: Lexflow nu citește fișiere de acest tip. Îl puteți încărca ca PDF, fișier Word (DOCX), fișier text sau fotografie.",
			schemas.CauseTooLarge:    "Un act pe care l-ați încărcat nu a putut fi citit: depășește ce citește Lexflow dintr-odată. Puteți încărca părțile importante ca fișiere separate.",
			schemas.CauseProtected:   "Un act pe care l-ați încărcat nu a putut fi citit: este protejat cu parolă. Îl puteți încărca din nou ca PDF fără parolă.",
			schemas.CauseUnreadable:  "Un act pe care l-ați încărcat nu a putut fi citit: nu s-a găsit text în el. Îl puteți încărca din nou, ca o scanare mai clară sau ca PDF fără parolă.",
			schemas.CauseSlow:        "Un act pe care l-ați încărcat nu a putut fi citit în timpul permis. Îl puteți încărca din nou, eventual împărțit în fișiere mai mici.",
			schemas.CauseUnpaid:      "Un act pe care l-ați încărcat nu a fost citit: până la plata cazului, Lexflow citește în total %d pagini din actele sale. Plătiți cazul și încărcați-l din nou.",
		}},
	"it": {read: "Un documento che ha caricato è stato letto (%d pagine); il suo riassunto è tra i documenti del caso.",
		failed: map[string]string{
			schemas.CauseUnsupported: "Un documento che ha caricato non è stato letto: Lexflow non legge file di questo tipo. Può caricarlo come PDF, file Word (DOCX), file di testo o foto.",
			schemas.CauseTooLarge:    "Un documento che ha caricato non è stato letto: supera ciò che Lexflow legge in una volta. Può caricarne le parti rilevanti come file separati.",
			schemas.CauseProtected:   "Un documento che ha caricato non è stato letto: è protetto da password. Può caricarlo di nuovo come PDF senza password.",
			schemas.CauseUnreadable:  "Un documento che ha caricato non è stato letto: non vi si è trovato alcun testo. Può caricarlo di nuovo, come scansione più nitida o come PDF senza password.",
			schemas.CauseSlow:        "Un documento che ha caricato non è stato letto nel tempo consentito. Può caricarlo di nuovo, magari diviso in file più piccoli.",
			schemas.CauseUnpaid:      "Un documento che ha caricato non è stato letto: prima del pagamento del caso, Lexflow legge in tutto %d pagine dei suoi documenti. Paghi il caso e lo carichi di nuovo.",
		}},
}

// readBlob returns the blob under key.
func readBlob(ctx context.Context, blobs blob.Store, key string) ([]byte, error) {
	r, err := blobs.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// now stamps a read.
func (a *Documents) now() time.Time {
	if a.Now != nil {
		return a.Now().UTC()
	}
	return time.Now().UTC()
}
