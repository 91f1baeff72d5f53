package doctext

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"hash/crc32"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/go-pdf/fpdf"
	"golang.org/x/text/unicode/norm"
)

// needs fails a test whose commands are not installed: make test installs them (its
// pdftools and ocr targets).
func needs(t *testing.T, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("%s is not installed: make pdftools ocr", c)
		}
	}
}

func read(t *testing.T, data []byte, lim Limits) (Doc, error) {
	t.Helper()
	kind, err := Sniff(data)
	if err != nil {
		return Doc{}, err
	}
	return Read(context.Background(), kind, data, lim)
}

func TestReadDOCX(t *testing.T) {
	doc, err := read(t, docxOf(t, leaseRO), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != DOCX || len(doc.Pages) != 1 || doc.Pages[0].Text != strings.Join(leaseRO, "\n") {
		t.Errorf("read %+v", doc)
	}
}

func TestReadPDFTextLayer(t *testing.T) {
	needs(t, "pdfinfo", "pdftotext")
	doc, err := read(t, textPDF(t, summonsIT), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != PDF || len(doc.Pages) != 1 || doc.Pages[0].OCR || doc.Pages[0].Text != strings.Join(summonsIT, "\n") {
		t.Errorf("read %+v", doc)
	}
}

func TestReadText(t *testing.T) {
	doc, err := read(t, []byte(strings.Join(leaseRO, "\n")), DefaultLimits)
	if err != nil || doc.Kind != Text || doc.Pages[0].Text != strings.Join(leaseRO, "\n") {
		t.Errorf("read %+v, %v", doc, err)
	}
}

// TestOCR reads the summons as a photo and as a scanned PDF, and reports the
// character error rate against its text; the party's name must come through, so that
// it can be pseudonymized.
func TestOCR(t *testing.T) {
	needs(t, "tesseract", "pdfinfo", "pdftotext", "pdftoppm")
	scan := scanPNG(t, summonsIT)
	for name, data := range map[string][]byte{"photo (PNG)": scan, "scanned PDF": scanPDF(t, scan)} {
		doc, err := read(t, data, DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(doc.Pages) != 1 || !doc.Pages[0].OCR {
			t.Fatalf("%s: pages %+v", name, doc.Pages)
		}
		got := doc.Pages[0].Text
		cer := errorRate(got, strings.Join(summonsIT, "\n"))
		t.Logf("%s: character error rate %.1f%% (%d characters)", name, 100*cer, len([]rune(strings.Join(summonsIT, "\n"))))
		if cer > 0.05 {
			t.Errorf("%s: character error rate %.1f%% > 5%%; read:\n%s", name, 100*cer, got)
		}
		if !strings.Contains(got, "Mario Rossi") || !strings.Contains(got, "RSSMRA85T10A562S") {
			t.Errorf("%s: the party's name or tax code was not read:\n%s", name, got)
		}
	}
}

// errorRate is the edit distance between got and want over want's length, after
// their spaces are made single.
func errorRate(got, want string) float64 {
	a := []rune(strings.Join(strings.Fields(norm.NFC.String(got)), " "))
	b := []rune(strings.Join(strings.Fields(norm.NFC.String(want)), " "))
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(b)]) / float64(len(b))
}

// TestRefused: what cannot be read safely is refused, with the reason, quickly.
func TestRefused(t *testing.T) {
	needs(t, "pdfinfo", "pdftotext")
	// A ZIP bomb dressed as a DOCX: its text part unpacks to 200 MB of spaces.
	var bomb bytes.Buffer
	zw := zip.NewWriter(&bomb)
	for _, f := range []struct {
		name string
		size int
	}{{"[Content_Types].xml", 10}, {docxBody, 200 << 20}} {
		w, err := zw.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		for left := f.size; left > 0; left -= len(chunk) {
			if _, err := w.Write(chunk[:min(len(chunk), left)]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	// The same bomb, its headers claiming 1,000 bytes: archive/zip stops there, and
	// the archive is damaged.
	liar := lyingBomb(t, 200<<20)

	many := newPDF()
	for range 3000 {
		many.AddPage()
	}
	locked := newPDF()
	locked.SetProtection(fpdf.CnProtectPrint, "user secret", "owner secret")
	locked.AddPage()
	locked.Cell(0, 10, "Riservato")
	blank := newPDF()
	blank.AddPage()
	// A page of 7,000 × 7,000 points, which at 300 dpi would be 850 megapixels.
	huge := newPDF()
	huge.AddPageFormat("P", fpdf.SizeType{Wd: 2469, Ht: 2469})
	deep := zipOf(t, map[string]string{"[Content_Types].xml": "<Types/>",
		docxBody: `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` + strings.Repeat("<w:a>", 100_000)})

	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"a ZIP bomb disguised as a DOCX", bomb.Bytes(), ErrTooLarge},
		{"a ZIP bomb whose header lies", liar, ErrUnreadable},
		{"a PDF of 3,000 pages", pdfBytes(t, many), ErrTooLarge},
		{"a PDF behind a password", pdfBytes(t, locked), ErrUnreadable},
		{"a blank PDF", pdfBytes(t, blank), ErrUnreadable},
		{"a blank page of 7,000 points square", pdfBytes(t, huge), ErrUnreadable},
		{"a DOCX of 100,000 nested elements", deep, ErrTooLarge},
		{"an executable named .pdf", append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 64)...), ErrUnsupported},
		{"a Windows executable", append([]byte("MZ\x90\x00"), make([]byte, 64)...), ErrUnsupported},
		{"a ZIP that is no DOCX", zipOf(t, map[string]string{"a.txt": "hi"}), ErrUnsupported},
		{"text in Latin-1", []byte("Garan\xe7ie"), ErrUnsupported},
		{"an empty file", nil, ErrUnsupported},
		{"a PNG of 100 megapixels", pngHeader(10000, 10000), ErrTooLarge},
	} {
		start := time.Now()
		_, err := read(t, tc.data, DefaultLimits)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v; want %v", tc.name, err, tc.want)
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("%s: refused after %s", tc.name, took)
		}
		if err != nil && !strings.ContainsFunc(strings.TrimPrefix(err.Error(), tc.want.Error()), unicode.IsLetter) {
			t.Errorf("%s: no reason given: %v", tc.name, err)
		}
	}
}

// lyingBomb is a DOCX whose text part unpacks to size bytes of spaces while its
// headers say 1,000.
func lyingBomb(t *testing.T, size int) []byte {
	t.Helper()
	var packed bytes.Buffer
	fw, err := flate.NewWriter(&packed, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for left := size; left > 0; left -= len(chunk) {
		if _, err := fw.Write(chunk[:min(len(chunk), left)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	w, err := zw.Create("[Content_Types].xml")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("<Types/>"))
	raw, err := zw.CreateRaw(&zip.FileHeader{Name: docxBody, Method: zip.Deflate,
		CompressedSize64: uint64(packed.Len()), UncompressedSize64: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Write(packed.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// pngHeader is a PNG's signature and header for an image of w × h pixels, without its
// data: enough for image.DecodeConfig.
func pngHeader(w, h int) []byte {
	var img bytes.Buffer
	img.WriteString("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	be := func(v int) { img.Write([]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}) }
	be(w)
	be(h)
	img.Write([]byte{8, 0, 0, 0, 0})
	sum := crc32.ChecksumIEEE(img.Bytes()[12:])
	be(int(sum))
	return img.Bytes()
}

// TestRunSaysWhoseFault: a command's timeout or failure is the document's, too much
// output too; the caller's cancellation and a missing command are not.
func TestRunSaysWhoseFault(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tc := range []struct {
		name     string
		ctx      context.Context
		cmd      []string
		want     error
		notClass bool
	}{
		{"a command that fails", ctx, []string{"false"}, ErrUnreadable, false},
		{"a command past its time", ctx, []string{"sleep", "5"}, ErrUnreadable, false},
		{"too much output", ctx, []string{"yes"}, ErrTooLarge, false},
		{"a cancelled caller", cancelled, []string{"sleep", "5"}, context.Canceled, true},
		{"a command not installed", ctx, []string{"lexflow-no-such-command"}, exec.ErrNotFound, true},
	} {
		_, err := run(tc.ctx, 200*time.Millisecond, 1000, nil, tc.cmd[0], tc.cmd[1:]...)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v; want %v", tc.name, err, tc.want)
		}
		if tc.notClass && (errors.Is(err, ErrUnreadable) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrUnsupported)) {
			t.Errorf("%s: %v is classed as the document's fault", tc.name, err)
		}
	}
}
