package doctext

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// pagesRe finds the page count in pdfinfo's report.
var pagesRe = regexp.MustCompile(`(?m)^Pages:\s+(\d+)`)

// stdin is the file name poppler's tools read their standard input by: the PDF never
// touches a disk (no plaintext file is left behind if the process is killed).
const stdin = "fd://0"

// readPDF reads a PDF's text layer, page by page, and reads through OCR the pages
// that have none (scans), at most lim.MaxOCRPages of them. A PDF of more than
// lim.MaxPages pages is refused before its text is read. Each command reads the PDF
// from memory, on its standard input, and writes to its standard output.
func readPDF(ctx context.Context, data []byte, lim Limits) (Doc, error) {
	pages, err := pdfPages(ctx, data, lim)
	if err != nil {
		return Doc{}, err
	}
	out, err := run(ctx, lim.PageTimeout, lim.MaxText, data, "pdftotext", "-enc", "UTF-8", stdin, "-")
	if err != nil {
		return Doc{}, err
	}
	texts := strings.Split(string(out), "\f") // pdftotext ends each page with a form feed
	doc := Doc{}
	for n := 1; n <= pages; n++ {
		p := Page{N: n}
		if n <= len(texts) {
			p.Text = strings.TrimSpace(texts[n-1])
		}
		if p.Text == "" {
			if ocrd := countOCR(doc.Pages); ocrd >= lim.MaxOCRPages {
				doc.Skipped++
			} else if p.Text, err = ocrPage(ctx, data, n, lim); err != nil {
				return Doc{}, err
			} else {
				p.OCR = true
			}
		}
		doc.Pages = append(doc.Pages, p)
	}
	for _, p := range doc.Pages {
		if p.Text != "" {
			return doc, nil
		}
	}
	return Doc{}, fmt.Errorf("%w: no text could be read in the PDF, even by OCR", ErrUnreadable)
}

// pdfPages counts the pages of the PDF data with pdfinfo, refusing a PDF locked by a
// password or of more than lim.MaxPages pages.
func pdfPages(ctx context.Context, data []byte, lim Limits) (int, error) {
	info, err := run(ctx, lim.PageTimeout, 1<<20, data, "pdfinfo", stdin)
	switch {
	case errors.Is(err, ErrUnreadable) && strings.Contains(err.Error(), "password"):
		return 0, fmt.Errorf("%w: %w", ErrUnreadable, ErrProtected)
	case err != nil:
		return 0, fmt.Errorf("the PDF cannot be opened: %w", err)
	}
	m := pagesRe.FindSubmatch(info)
	if m == nil {
		return 0, fmt.Errorf("%w: the PDF's pages cannot be counted", ErrUnreadable)
	}
	pages, _ := strconv.Atoi(string(m[1]))
	if pages > lim.MaxPages {
		return 0, fmt.Errorf("%w: the PDF has %d pages, more than %d", ErrTooLarge, pages, lim.MaxPages)
	}
	return pages, nil
}

// countOCR counts the pages read through OCR.
func countOCR(pages []Page) int {
	n := 0
	for _, p := range pages {
		if p.OCR {
			n++
		}
	}
	return n
}

// ocrScale is the longest side, in pixels, of a page rendered for OCR: an A4 page at
// 300 dpi. A page of any size renders to at most ocrScale² pixels.
const ocrScale = "3508"

// maxPageImage bounds the PNG of one page rendered for OCR: a grey ocrScale² image
// compresses to far less.
const maxPageImage = 64 << 20

// ocrPage renders page n of the PDF data to a grey PNG, its longest side ocrScale
// pixels, on pdftoppm's standard output, and reads it through OCR.
func ocrPage(ctx context.Context, data []byte, n int, lim Limits) (string, error) {
	page := strconv.Itoa(n)
	img, err := run(ctx, lim.PageTimeout, maxPageImage, data, "pdftoppm", "-f", page, "-l", page, "-scale-to", ocrScale, "-gray", "-png", "-singlefile", stdin)
	if err != nil {
		return "", fmt.Errorf("page %d cannot be rendered: %w", n, err)
	}
	return ocr(ctx, lim.PageTimeout, img)
}
