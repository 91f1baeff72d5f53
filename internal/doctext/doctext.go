// Package doctext reads the text of a client's document: a PDF's text layer (poppler's
// pdftotext), a DOCX's paragraphs, plain text, and scans and photos, and PDF pages
// without a text layer, through OCR (tesseract, with Romanian, Italian and English),
// each page within a time limit. It tells a document's kind by its content, never its
// name, and refuses what it cannot read safely, before reading it: too many pages, an
// archive that unpacks past a limit, an image too large to decode.
package doctext

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Kind is what a document is, as Sniff tells it from its content.
type Kind string

// The kinds Read reads.
const (
	PDF  Kind = "pdf"
	DOCX Kind = "docx"
	Text Kind = "text"
	JPEG Kind = "jpeg"
	PNG  Kind = "png"
)

// MediaType is the kind's media type, as a download is served.
func (k Kind) MediaType() string {
	switch k {
	case PDF:
		return "application/pdf"
	case DOCX:
		return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	case JPEG:
		return "image/jpeg"
	case PNG:
		return "image/png"
	}
	return "text/plain; charset=utf-8"
}

var (
	// ErrUnsupported is a document of no kind Read reads (an executable, an old .doc,
	// a ZIP that is no DOCX, text that is not UTF-8).
	ErrUnsupported = errors.New("unsupported document")
	// ErrTooLarge is a document past Limits: too many pages, an archive that unpacks
	// past MaxUnpacked, more text than MaxText, an image of too many pixels.
	ErrTooLarge = errors.New("document too large")
	// ErrUnreadable is a document of a kind Read reads that yields no text: an
	// encrypted or damaged PDF, a scan where OCR finds nothing, a page that takes
	// longer than Limits.PageTimeout. Errors of none of these three kinds (the
	// caller's cancellation, a command not installed) are not the document's fault.
	ErrUnreadable = errors.New("document unreadable")
	// ErrProtected is a PDF locked by a password; it comes wrapped with ErrUnreadable.
	ErrProtected = errors.New("the PDF is protected by a password")
)

// Limits bound what Read does with one document.
type Limits struct {
	// MaxPages is the most pages a PDF may have.
	MaxPages int
	// MaxUnpacked is the most bytes a DOCX's text part may unpack to.
	MaxUnpacked int64
	// MaxPixels is the most pixels an image may have.
	MaxPixels int
	// PageTimeout bounds OCR of one page, and pdftotext and pdfinfo each.
	PageTimeout time.Duration
	// MaxOCRPages is the most pages of one PDF that OCR reads; the rest are left
	// without text, and Doc.Skipped counts them.
	MaxOCRPages int
	// MaxText is the most text, in bytes, a document may hold: a PDF's text layer, a
	// DOCX's text, a text file. It is checked before the text is cut into pages.
	MaxText int
}

// DefaultLimits are Lexflow's: 500 pages, a DOCX's text part unpacking to 50 MB, 40
// megapixels, 60 s a page, 50 pages of OCR, 20 MB of text. A caller bounds the whole read with
// its context.
var DefaultLimits = Limits{MaxPages: 500, MaxUnpacked: 50 << 20, MaxPixels: 40_000_000, PageTimeout: time.Minute, MaxOCRPages: 50, MaxText: 20 << 20}

// Page is one page's text; OCR says it was read from its image.
type Page struct {
	N    int    `json:"n"`
	Text string `json:"text"`
	OCR  bool   `json:"ocr,omitempty"`
}

// Doc is a document's text, page by page (a DOCX or a text file is one page).
type Doc struct {
	Kind  Kind   `json:"kind"`
	Pages []Page `json:"pages"`
	// Skipped counts the pages without a text layer past Limits.MaxOCRPages.
	Skipped int `json:"skipped,omitempty"`
}

// Read reads the text of a document of the given kind (see Sniff).
func Read(ctx context.Context, kind Kind, data []byte, lim Limits) (Doc, error) {
	var doc Doc
	var err error
	switch kind {
	case PDF:
		doc, err = readPDF(ctx, data, lim)
	case DOCX:
		doc, err = readDOCX(ctx, data, lim)
	case Text:
		if err = checkText(data, lim); err == nil {
			doc = Doc{Pages: []Page{{N: 1, Text: string(data)}}}
		}
	case JPEG, PNG:
		doc, err = readImage(ctx, data, lim)
	default:
		return Doc{}, fmt.Errorf("%w: kind %q", ErrUnsupported, kind)
	}
	doc.Kind = kind
	return doc, err
}

// checkText refuses a text file of more than lim.MaxText bytes.
func checkText(data []byte, lim Limits) error {
	if len(data) > lim.MaxText {
		return fmt.Errorf("%w: its text has %d bytes, more than %d", ErrTooLarge, len(data), lim.MaxText)
	}
	return nil
}
