// Package doctexttest builds the documents Lexflow's tests read: a Romanian lease as a
// DOCX, an Italian summons as a PDF with a text layer and rendered as a scan, and the
// uploads that must be refused (a ZIP bomb, a PDF of thousands of pages).
package doctexttest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// docxBody is the part of a DOCX that holds its text.
const docxBody = "word/document.xml"

// The fixtures' texts: a Romanian lease and an Italian summons, each with a party's
// name, a CNP or codice fiscale, an IBAN, an e-mail address and a phone number.
var (
	LeaseRO = []string{
		"CONTRACT DE ÎNCHIRIERE",
		"Între Ștefan Țurcanu, CNP 1800101221144, domiciliat în Iași,",
		"în calitate de proprietar, și Maria Ionescu, în calitate de chiriaș.",
		"Chiria de 1.500 lei se plătește în contul RO49AAAA1B31007593840000.",
		"Contact: stefan.turcanu@example.ro, telefon 0722 123 456.",
		"Art. 5. Garanția se restituie la încetarea contractului.",
	}
	SummonsIT = []string{
		"ATTO DI CITAZIONE",
		"Il sig. Mario Rossi, codice fiscale RSSMRA85T10A562S,",
		"cita la societa Alfa S.r.l. a comparire davanti al Tribunale di Roma.",
		"IBAN IT60X0542811101000000123456 per il pagamento delle spese.",
		"Recapiti: mario.rossi@example.it, tel. +39 06 1234 5678.",
	}
)

// DOCX is a minimal Word document whose paragraphs are paras.
func DOCX(t testing.TB, paras []string) []byte {
	t.Helper()
	var body strings.Builder
	for _, p := range paras {
		body.WriteString(`<w:p><w:r><w:t xml:space="preserve">`)
		xmlEscape(&body, p)
		body.WriteString(`</w:t></w:r></w:p>`)
	}
	return Zip(t, map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		docxBody: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
			body.String() + `</w:body></w:document>`,
	})
}

// xmlEscape writes s escaped as XML text.
func xmlEscape(b *strings.Builder, s string) {
	strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").WriteString(b, s)
}

// Zip is a ZIP archive of files, by name.
func Zip(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// NewPDF is an A4 PDF with Go's regular font, which has the diacritics.
func NewPDF() *fpdf.Fpdf {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddUTF8FontFromBytes("go", "", goregular.TTF)
	pdf.SetFont("go", "", 12)
	return pdf
}

// PDFBytes is pdf written out.
func PDFBytes(t testing.TB, pdf *fpdf.Fpdf) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TextPDF is a one-page PDF with lines as its text layer.
func TextPDF(t testing.TB, lines []string) []byte {
	pdf := NewPDF()
	pdf.AddPage()
	for _, l := range lines {
		pdf.CellFormat(0, 8, l, "", 1, "", false, 0, "")
	}
	return PDFBytes(t, pdf)
}

// ScanPNG renders lines as a 200 dpi scan would show them: black text on white.
func ScanPNG(t testing.TB, lines []string) []byte {
	t.Helper()
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 11, DPI: 200, Hinting: font.HintingFull})
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	lineHeight := face.Metrics().Height.Ceil() * 3 / 2
	img := image.NewGray(image.Rect(0, 0, 1700, 120+lineHeight*len(lines)))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(80, 80+lineHeight*(i+1))
		d.DrawString(l)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ScanPDF is a one-page PDF whose page is only the image: a scan, without a text layer.
func ScanPDF(t testing.TB, pngData []byte) []byte {
	pdf := NewPDF()
	pdf.AddPage()
	pdf.RegisterImageOptionsReader("scan", fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(pngData))
	pdf.ImageOptions("scan", 0, 0, 210, 0, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	return PDFBytes(t, pdf)
}

// ZipBomb is a DOCX whose text part unpacks to size bytes of spaces, its headers
// saying so.
func ZipBomb(t testing.TB, size int) []byte {
	t.Helper()
	var bomb bytes.Buffer
	zw := zip.NewWriter(&bomb)
	for _, f := range []struct {
		name string
		size int
	}{{"[Content_Types].xml", 10}, {docxBody, size}} {
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
	return bomb.Bytes()
}

// ManyPages is a PDF of n blank pages.
func ManyPages(t testing.TB, n int) []byte {
	pdf := NewPDF()
	for range n {
		pdf.AddPage()
	}
	return PDFBytes(t, pdf)
}

// LyingBomb is a DOCX whose text part unpacks to size bytes of spaces while its
// headers say 1,000.
func LyingBomb(t testing.TB, size int) []byte {
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

// PNGHeader is a PNG's signature and header for an image of w × h pixels, without its
// data: enough for image.DecodeConfig.
func PNGHeader(w, h int) []byte {
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

// ManyEntries is a ZIP whose central directory lists a Word document's two parts and
// n entries of no name and no data after them: 46 bytes each, so that 20 MB list
// 450,000.
func ManyEntries(n int) []byte {
	var b bytes.Buffer
	b.WriteString("PK\x03\x04")
	b.Write(make([]byte, 26))
	dir := b.Len()
	entry := func(name string) {
		h := make([]byte, 46)
		copy(h, "PK\x01\x02")
		binary.LittleEndian.PutUint16(h[28:], uint16(len(name)))
		b.Write(h)
		b.WriteString(name)
	}
	entry("[Content_Types].xml")
	entry(docxBody)
	for range n {
		entry("")
	}
	end := make([]byte, 22)
	copy(end, "PK\x05\x06")
	binary.LittleEndian.PutUint16(end[8:], uint16(n+2))
	binary.LittleEndian.PutUint16(end[10:], uint16(n+2))
	binary.LittleEndian.PutUint32(end[12:], uint32(b.Len()-dir))
	binary.LittleEndian.PutUint32(end[16:], uint32(dir))
	b.Write(end)
	return b.Bytes()
}
