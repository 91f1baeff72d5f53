package doctext

import (
	"context"
	"fmt"
)

// Check looks at a document of the given kind as cheaply as its kind allows, without
// reading its text, and returns the error Read would return for the document's size:
// a PDF's page count (pdfinfo), a DOCX's unpacked size (its ZIP header), an image's
// pixels (its header), a text file's size. An upload checked first is refused before
// it is stored.
// ErrUnreadable (a password, a damaged file) is for the read to report.
func Check(ctx context.Context, kind Kind, data []byte, lim Limits) error {
	switch kind {
	case PDF:
		_, err := pdfPages(ctx, data, lim)
		return err
	case DOCX:
		_, err := docxPart(data, lim)
		return err
	case JPEG, PNG:
		return checkImage(data, lim)
	case Text:
		return checkText(data, lim)
	}
	return fmt.Errorf("%w: kind %q", ErrUnsupported, kind)
}
