package doctext

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// docxBody is the part of a DOCX that holds its text.
const docxBody = "word/document.xml"

// readDOCX reads a DOCX's paragraphs, tabs and line breaks from its main part, which
// may unpack to at most lim.MaxUnpacked bytes and hold at most lim.MaxText bytes of
// text. Its header's size is checked before it is unpacked, and archive/zip unpacks no
// more than the header says: a part that unpacks to more is a damaged archive. The
// read stops with ctx's error once ctx is done.
func readDOCX(ctx context.Context, data []byte, lim Limits) (Doc, error) {
	f, err := docxPart(data, lim)
	if err != nil {
		return Doc{}, err
	}
	rc, err := f.Open()
	if err != nil {
		return Doc{}, fmt.Errorf("%w: the DOCX is damaged: %v", ErrUnreadable, err)
	}
	defer rc.Close()
	text, err := docxText(ctx, rc, lim.MaxText)
	switch {
	case ctx.Err() != nil:
		return Doc{}, ctx.Err()
	case errors.Is(err, ErrTooLarge):
		return Doc{}, err
	case err != nil:
		return Doc{}, fmt.Errorf("%w: the DOCX is damaged: %v", ErrUnreadable, err)
	}
	return Doc{Pages: []Page{{N: 1, Text: text}}}, nil
}

// docxPart finds a DOCX's main part, refusing an archive whose directory is past
// maxZipDirectory bytes and a part whose header says it unpacks to more than
// lim.MaxUnpacked bytes.
func docxPart(data []byte, lim Limits) (*zip.File, error) {
	zr, err := openZip(data)
	if err != nil {
		return nil, err
	}
	for _, f := range zr.File {
		if f.Name != docxBody {
			continue
		}
		if f.UncompressedSize64 > uint64(lim.MaxUnpacked) {
			return nil, fmt.Errorf("%w: its text unpacks to %d bytes, more than %d", ErrTooLarge, f.UncompressedSize64, lim.MaxUnpacked)
		}
		return f, nil
	}
	return nil, fmt.Errorf("%w: no %s", ErrUnreadable, docxBody)
}

// maxDepth bounds how deeply a DOCX's elements may nest: the XML decoder keeps every
// open element, so millions of nested ones would take gigabytes.
const maxDepth = 256

// checkTokens is how many XML tokens docxText reads between looks at its context.
const checkTokens = 4096

// docxText is the text of a WordprocessingML body: its runs' text (w:t), tabs as tabs,
// breaks (w:br, w:cr) and paragraph ends (w:p) as line breaks; text past maxText
// bytes is ErrTooLarge, found as soon as the text grows past it.
func docxText(ctx context.Context, r io.Reader, maxText int) (string, error) {
	const w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	dec := xml.NewDecoder(r)
	var b strings.Builder
	inText := false
	depth := 0
	for n := 0; ; n++ {
		if n%checkTokens == 0 && ctx.Err() != nil {
			return "", ctx.Err()
		}
		if b.Len() > maxText {
			return "", fmt.Errorf("%w: its text has more than %d bytes", ErrTooLarge, maxText)
		}
		tok, err := dec.Token()
		if err == io.EOF {
			return strings.TrimSpace(b.String()), nil
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxDepth {
				return "", fmt.Errorf("%w: its elements nest deeper than %d", ErrTooLarge, maxDepth)
			}
			if t.Name.Space != w {
				continue
			}
			switch t.Name.Local {
			case "t":
				inText = true
			case "tab":
				b.WriteByte('\t')
			case "br", "cr":
				b.WriteByte('\n')
			}
		case xml.EndElement:
			depth--
			if t.Name.Space != w {
				continue
			}
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				b.WriteByte('\n')
			}
		case xml.CharData:
			if inText {
				b.Write(t)
			}
		}
	}
}
