package doctext

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
)

// maxZipDirectory bounds the bytes archive/zip reads to open a ZIP: its end record and
// its central directory, which it reads whole, one File for each 46 bytes or more,
// before anything else. 1 MiB is some 9,000 entries of a DOCX (its parts number
// tens, or hundreds with images), where a 20 MB upload could list 450,000 entries and
// cost each of its three readings (Sniff, Check, Read) half a second and 115 MB.
const maxZipDirectory = 1 << 20

// errZipDirectory stops archive/zip past maxZipDirectory.
var errZipDirectory = errors.New("ZIP directory past its limit")

// openZip is archive/zip's reader of data, opened by reading at most maxZipDirectory
// bytes (and the 65 KiB archive/zip searches for the end record): ErrTooLarge past
// them, ErrUnreadable for what is no ZIP.
func openZip(data []byte) (*zip.Reader, error) {
	r := &budgetReader{data: bytes.NewReader(data), left: maxZipDirectory + 66<<10}
	zr, err := zip.NewReader(r, int64(len(data)))
	switch {
	case errors.Is(err, errZipDirectory):
		return nil, fmt.Errorf("%w: its ZIP directory has more than %d bytes", ErrTooLarge, maxZipDirectory)
	case err != nil:
		return nil, fmt.Errorf("%w: the archive is damaged: %v", ErrUnreadable, err)
	}
	r.left = -1 // opened: its parts are bounded by their own limits
	return zr, nil
}

// budgetReader reads at most left bytes of data, and any amount once left is -1.
type budgetReader struct {
	data *bytes.Reader
	left int
}

func (r *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	if r.left >= 0 {
		if len(p) > r.left {
			return 0, errZipDirectory
		}
		r.left -= len(p)
	}
	return r.data.ReadAt(p, off)
}
