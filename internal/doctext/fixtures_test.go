package doctext

import (
	"archive/zip"
	"bytes"
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

// The fixtures' texts: a Romanian lease and an Italian summons, each with a party's
// name, a CNP or codice fiscale, an IBAN, an e-mail address and a phone number.
var (
	leaseRO = []string{
		"CONTRACT DE ÎNCHIRIERE",
		"Între Ștefan Țurcanu, CNP 1800101221144, domiciliat în Iași,",
		"în calitate de proprietar, și Maria Ionescu, în calitate de chiriaș.",
		"Chiria de 1.500 lei se plătește în contul RO49AAAA1B31007593840000.",
		"Contact: stefan.turcanu@example.ro, telefon 0722 123 456.",
		"Art. 5. Garanția se restituie la încetarea contractului.",
	}
	summonsIT = []string{
		"ATTO DI CITAZIONE",
		"Il sig. Mario Rossi, codice fiscale RSSMRA85T10A562S,",
		"cita la societa Alfa S.r.l. a comparire davanti al Tribunale di Roma.",
		"IBAN IT60X0542811101000000123456 per il pagamento delle spese.",
		"Recapiti: mario.rossi@example.it, tel. +39 06 1234 5678.",
	}
)

// docxOf is a minimal Word document whose paragraphs are paras.
func docxOf(t *testing.T, paras []string) []byte {
	t.Helper()
	var body strings.Builder
	for _, p := range paras {
		body.WriteString(`<w:p><w:r><w:t xml:space="preserve">`)
		xmlEscape(&body, p)
		body.WriteString(`</w:t></w:r></w:p>`)
	}
	return zipOf(t, map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		docxBody: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
			body.String() + `</w:body></w:document>`,
	})
}

func xmlEscape(b *strings.Builder, s string) {
	strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").WriteString(b, s)
}

func zipOf(t *testing.T, files map[string]string) []byte {
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

// newPDF is an A4 PDF with Go's regular font, which has the diacritics.
func newPDF() *fpdf.Fpdf {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddUTF8FontFromBytes("go", "", goregular.TTF)
	pdf.SetFont("go", "", 12)
	return pdf
}

func pdfBytes(t *testing.T, pdf *fpdf.Fpdf) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// textPDF is a one-page PDF with lines as its text layer.
func textPDF(t *testing.T, lines []string) []byte {
	pdf := newPDF()
	pdf.AddPage()
	for _, l := range lines {
		pdf.CellFormat(0, 8, l, "", 1, "", false, 0, "")
	}
	return pdfBytes(t, pdf)
}

// scanPNG renders lines as a 200 dpi scan would show them: black text on white.
func scanPNG(t *testing.T, lines []string) []byte {
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

// scanPDF is a one-page PDF whose page is only the image: a scan, without a text layer.
func scanPDF(t *testing.T, pngData []byte) []byte {
	pdf := newPDF()
	pdf.AddPage()
	pdf.RegisterImageOptionsReader("scan", fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(pngData))
	pdf.ImageOptions("scan", 0, 0, 210, 0, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	return pdfBytes(t, pdf)
}
