package doctext

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/go-pdf/fpdf"
	"github.com/lexflow/lexflow/internal/doctext/doctexttest"
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
	doc, err := read(t, doctexttest.DOCX(t, doctexttest.LeaseRO), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != DOCX || len(doc.Pages) != 1 || doc.Pages[0].Text != strings.Join(doctexttest.LeaseRO, "\n") {
		t.Errorf("read %+v", doc)
	}
}

func TestReadPDFTextLayer(t *testing.T) {
	needs(t, "pdfinfo", "pdftotext")
	doc, err := read(t, doctexttest.TextPDF(t, doctexttest.SummonsIT), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != PDF || len(doc.Pages) != 1 || doc.Pages[0].OCR || doc.Pages[0].Text != strings.Join(doctexttest.SummonsIT, "\n") {
		t.Errorf("read %+v", doc)
	}
}

func TestReadText(t *testing.T) {
	doc, err := read(t, []byte(strings.Join(doctexttest.LeaseRO, "\n")), DefaultLimits)
	if err != nil || doc.Kind != Text || doc.Pages[0].Text != strings.Join(doctexttest.LeaseRO, "\n") {
		t.Errorf("read %+v, %v", doc, err)
	}
}

// TestOCR reads the summons as a photo and as a scanned PDF, and reports the
// character error rate against its text; the party's name must come through, so that
// it can be pseudonymized.
func TestOCR(t *testing.T) {
	needs(t, "tesseract", "pdfinfo", "pdftotext", "pdftoppm")
	scan := doctexttest.ScanPNG(t, doctexttest.SummonsIT)
	for name, data := range map[string][]byte{"photo (PNG)": scan, "scanned PDF": doctexttest.ScanPDF(t, scan)} {
		doc, err := read(t, data, DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(doc.Pages) != 1 || !doc.Pages[0].OCR {
			t.Fatalf("%s: pages %+v", name, doc.Pages)
		}
		got := doc.Pages[0].Text
		cer := errorRate(got, strings.Join(doctexttest.SummonsIT, "\n"))
		t.Logf("%s: character error rate %.1f%% (%d characters)", name, 100*cer, len([]rune(strings.Join(doctexttest.SummonsIT, "\n"))))
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
	// The same bomb, its headers claiming 1,000 bytes: archive/zip stops there, and
	// the archive is damaged.
	liar := doctexttest.LyingBomb(t, 200<<20)

	locked := doctexttest.NewPDF()
	locked.SetProtection(fpdf.CnProtectPrint, "user secret", "owner secret")
	locked.AddPage()
	locked.Cell(0, 10, "Riservato")
	blank := doctexttest.NewPDF()
	blank.AddPage()
	// A page of 7,000 × 7,000 points, which at 300 dpi would be 850 megapixels.
	huge := doctexttest.NewPDF()
	huge.AddPageFormat("P", fpdf.SizeType{Wd: 2469, Ht: 2469})
	deep := doctexttest.Zip(t, map[string]string{"[Content_Types].xml": "<Types/>",
		docxBody: `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` + strings.Repeat("<w:a>", 100_000)})

	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"a ZIP bomb disguised as a DOCX", doctexttest.ZipBomb(t, 200<<20), ErrTooLarge},
		{"a ZIP bomb whose header lies", liar, ErrUnreadable},
		{"a PDF of 3,000 pages", doctexttest.ManyPages(t, 3000), ErrTooLarge},
		{"a PDF behind a password", doctexttest.PDFBytes(t, locked), ErrUnreadable},
		{"a blank PDF", doctexttest.PDFBytes(t, blank), ErrUnreadable},
		{"a blank page of 7,000 points square", doctexttest.PDFBytes(t, huge), ErrUnreadable},
		{"a DOCX of 100,000 nested elements", deep, ErrTooLarge},
		// Issue 36, finding 3: tens of kilobytes that unpack to more text than MaxText.
		{"a small DOCX holding 21 MB of text", doctexttest.DOCX(t, []string{strings.Repeat("Chiria se plătește lunar. ", 800_000)}), ErrTooLarge},
		{"21 MB of text", []byte(strings.Repeat("Chiria se plătește lunar.\n", 800_000)), ErrTooLarge},
		{"an executable named .pdf", append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 64)...), ErrUnsupported},
		{"a Windows executable", append([]byte("MZ\x90\x00"), make([]byte, 64)...), ErrUnsupported},
		{"a ZIP that is no DOCX", doctexttest.Zip(t, map[string]string{"a.txt": "hi"}), ErrUnsupported},
		{"text in Latin-1", []byte("Garan\xe7ie"), ErrUnsupported},
		{"an empty file", nil, ErrUnsupported},
		{"a PNG of 100 megapixels", doctexttest.PNGHeader(10000, 10000), ErrTooLarge},
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

// TestCheck: what Read would refuse as too large, Check refuses without reading the
// text; what Read reads, Check lets through.
func TestCheck(t *testing.T) {
	needs(t, "pdfinfo")
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"the lease", doctexttest.DOCX(t, doctexttest.LeaseRO), nil},
		{"the summons", doctexttest.TextPDF(t, doctexttest.SummonsIT), nil},
		{"the summons scanned", doctexttest.ScanPNG(t, doctexttest.SummonsIT), nil},
		{"text", []byte("Chiria se plătește lunar."), nil},
		{"a ZIP bomb disguised as a DOCX", doctexttest.ZipBomb(t, 200<<20), ErrTooLarge},
		{"a PDF of 3,000 pages", doctexttest.ManyPages(t, 3000), ErrTooLarge},
		{"a PNG of 100 megapixels", doctexttest.PNGHeader(10000, 10000), ErrTooLarge},
	} {
		kind, err := Sniff(tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := Check(context.Background(), kind, tc.data, DefaultLimits); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s: %v; want %v", tc.name, err, tc.want)
		}
	}
}

// TestRunSaysWhoseFault: a command's timeout or failure is the document's, too much
// output too; the caller's cancellation, a missing command and a kill from outside are
// not.
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
		{"a command killed from outside", ctx, []string{"sh", "-c", "kill -KILL $$"}, nil, true},
	} {
		_, err := run(tc.ctx, 200*time.Millisecond, 1000, nil, tc.cmd[0], tc.cmd[1:]...)
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v; want %v", tc.name, err, tc.want)
		}
		if tc.notClass && (errors.Is(err, ErrUnreadable) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrUnsupported)) {
			t.Errorf("%s: %v is classed as the document's fault", tc.name, err)
		}
	}
}

// TestAttackReadStopsWhenCancelled (issue 36, finding 3): a read whose context ends,
// as the SDK ends an activity's whose heartbeat the server no longer takes, stops
// with the context's error, not the document's.
func TestAttackReadStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := doctexttest.DOCX(t, []string{strings.Repeat("Chiria se plătește lunar. ", 400_000)})
	if _, err := Read(ctx, DOCX, big, DefaultLimits); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled read answered %v", err)
	}
}

// TestAttackCommandsHaveMemoryLimit (issue 36, suspicion "OCR subprocesses with no
// memory limit", which held): tesseract took 0.5 GB on a 40-megapixel scan, and any
// command could take what the machine has. Each command now runs under
// commandMemory of address space, and an allocation past it is the document's
// failure.
func TestAttackCommandsHaveMemoryLimit(t *testing.T) {
	needs(t, "sh", "python3")
	out, err := run(context.Background(), 10*time.Second, 100, nil, "sh", "-c", "ulimit -v")
	if want := strconv.Itoa(commandMemory >> 10); err != nil || strings.TrimSpace(string(out)) != want {
		t.Errorf("ulimit -v in a command: %q, %v; want %s KiB", out, err, want)
	}
	_, err = run(context.Background(), 10*time.Second, 100, nil, "python3", "-c", fmt.Sprintf("bytearray(%d)", commandMemory+1<<30))
	if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "MemoryError") {
		t.Errorf("an allocation past the limit: %v", err)
	}
	// A C or C++ program (tesseract, poppler) whose allocation fails aborts: the
	// document's fault too, not a kill from outside to be retried.
	if _, err = run(context.Background(), 10*time.Second, 100, nil, "sh", "-c", "kill -ABRT $$"); !errors.Is(err, ErrUnreadable) {
		t.Errorf("a command that aborts: %v, want ErrUnreadable", err)
	}
	if _, err = run(context.Background(), 10*time.Second, 100, nil, "sh", "-c", "kill -KILL $$"); err == nil || errors.Is(err, ErrUnreadable) {
		t.Errorf("a command killed from outside: %v, want an error to retry", err)
	}
}

// TestAttackZipOfManyEntries (issue 36, suspicion "a ZIP of ~400k entries parsed
// three times", which held: Sniff and Check at upload and Read in the worker each
// took half a second and 115 MB on 20 MB listing 450,000 entries). archive/zip now
// reads at most maxZipDirectory of an archive to open it: such a ZIP is refused as
// too large, without building its entries, and a DOCX of thousands of parts is read.
func TestAttackZipOfManyEntries(t *testing.T) {
	many := doctexttest.ManyEntries(450_000)
	if kind, err := Sniff(many); kind != DOCX || err != nil {
		t.Fatalf("Sniff = %q, %v", kind, err)
	}
	var err error
	allocs := testing.AllocsPerRun(1, func() { err = Check(context.Background(), DOCX, many, DefaultLimits) })
	// A few allocations for each directory entry within maxZipDirectory, not for each of
	// the 450,000.
	if !errors.Is(err, ErrTooLarge) || allocs > 4*maxZipDirectory/46 {
		t.Errorf("Check: %v after %.0f allocations", err, allocs)
	}
	if _, err := Read(context.Background(), DOCX, many, DefaultLimits); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Read: %v", err)
	}
	parts := map[string]string{"[Content_Types].xml": "<Types/>", "word/document.xml": `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Chiria</w:t></w:r></w:p></w:body></w:document>`}
	for i := range 5000 {
		parts[fmt.Sprintf("word/media/image%04d.png", i)] = ""
	}
	if doc, err := Read(context.Background(), DOCX, doctexttest.Zip(t, parts), DefaultLimits); err != nil || doc.Pages[0].Text != "Chiria" {
		t.Errorf("a DOCX of 5,000 parts: %+v, %v", doc, err)
	}
}
