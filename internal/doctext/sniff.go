package doctext

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Sniff tells a document's kind from its content: a PDF, PNG or JPEG by its
// signature, a DOCX by the parts a ZIP holds (a ZIP whose directory is past
// maxZipDirectory is taken for one, for Check and Read to refuse), text by being
// UTF-8 without control characters other than tabs, line and page breaks. Anything
// else is ErrUnsupported.
func Sniff(data []byte) (Kind, error) {
	switch {
	case bytes.HasPrefix(data, []byte("%PDF-")):
		return PDF, nil
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, nil
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return JPEG, nil
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		zr, err := openZip(data)
		switch {
		case errors.Is(err, ErrTooLarge):
			return DOCX, nil // too large to tell: Check and Read refuse it as too large
		case err == nil && isDOCX(zr):
			return DOCX, nil
		}
		return "", fmt.Errorf("%w: a ZIP archive that is no Word document", ErrUnsupported)
	case isText(data):
		return Text, nil
	}
	return "", fmt.Errorf("%w: not a PDF, DOCX, text, JPEG or PNG file", ErrUnsupported)
}

// isDOCX reports whether a ZIP holds a Word document's main part.
func isDOCX(zr *zip.Reader) bool {
	types, doc := false, false
	for _, f := range zr.File {
		types = types || f.Name == "[Content_Types].xml"
		doc = doc || f.Name == docxBody
	}
	return types && doc
}

// isText reports whether data is non-empty UTF-8 text.
func isText(data []byte) bool {
	if len(data) == 0 || !utf8.Valid(data) {
		return false
	}
	for _, c := range data {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			return false
		}
	}
	return true
}
