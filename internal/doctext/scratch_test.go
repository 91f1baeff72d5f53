package doctext

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lexflow/lexflow/internal/doctext/doctexttest"
)

// TestAttackNoPlaintextScratch (issue 36, finding 17): a document is read from memory,
// never written to a scratch file that a killed process would leave behind. With the
// temporary directory missing, so that no file can be made there, PDFs with a text
// layer and scanned ones are still checked and read.
func TestAttackNoPlaintextScratch(t *testing.T) {
	needs(t, "tesseract", "pdfinfo", "pdftotext", "pdftoppm")
	text := doctexttest.TextPDF(t, doctexttest.SummonsIT)
	scan := doctexttest.ScanPDF(t, doctexttest.ScanPNG(t, doctexttest.SummonsIT))
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	for name, data := range map[string][]byte{"text layer": text, "scan": scan} {
		if err := Check(context.Background(), PDF, data, DefaultLimits); err != nil {
			t.Errorf("%s: check: %v", name, err)
		}
		doc, err := read(t, data, DefaultLimits)
		if err != nil {
			t.Errorf("%s: read: %v", name, err)
			continue
		}
		if len(doc.Pages) != 1 || doc.Pages[0].Text == "" {
			t.Errorf("%s: read %+v", name, doc)
		}
	}
}
