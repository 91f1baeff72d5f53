package api_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/doctext/doctexttest"
	"github.com/lexflow/lexflow/schemas"
)

// leaseValues are the personal data of the lease fixture: the party's name, CNP and
// e-mail, and an IBAN and a phone number found by their form.
var leaseValues = []string{"Ștefan", "Țurcanu", "1800101221144", "stefan.turcanu@example.ro", "RO49AAAA1B31007593840000", "0722 123 456"}

// leaseParty is the lease's landlord, as the client adds him to the case.
var leaseParty = map[string]any{"first_name": "Ștefan", "last_name": "Țurcanu", "cnp": "1800101221144", "email": "stefan.turcanu@example.ro"}

// TestDocumentIsReadPseudonymizedAndAsked: a client uploads a lease; Lexflow reads it,
// summarizes it and answers a question about a clause, the models seeing placeholders
// only; the client sees the original and the pseudonymized text side by side, downloads
// the file, and deletes it, leaving nothing behind.
func TestDocumentIsReadPseudonymizedAndAsked(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "ioana")
	r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Proprietarul nu îmi restituie garanția", "language": "ro"})
	id := r.Body["case_id"].(string)
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, leaseParty); r.Status != http.StatusCreated {
		t.Fatalf("party: %d %s", r.Status, r.Raw)
	}
	lease := doctexttest.DOCX(t, doctexttest.LeaseRO)
	up := s.Upload(t, tok, id, `C:\Acte\Contract Țurcanu.docx`, lease)
	if up.Status != http.StatusAccepted {
		t.Fatalf("upload: %d %s", up.Status, up.Raw)
	}
	docID := up.Body["id"].(string)
	if up.Body["name"] != "Contract Țurcanu.docx" || up.Body["title"] != schemas.DocumentTitle(docID, "docx") || up.Body["status"] != "received" {
		t.Errorf("upload answered %s", up.Raw)
	}
	d := s.WaitForDocument(t, tok, id, docID)
	if d.Status != schemas.DocRead || d.Pages != 1 || !strings.Contains(d.Summary, "{{party0.fullName}}") || !strings.HasPrefix(d.Summary, d.Title) {
		t.Fatalf("document %+v", d)
	}
	noValues(t, "the summary", d.Summary)

	again := s.Upload(t, tok, id, "another name.docx", lease)
	if again.Status != http.StatusOK || again.Body["id"] != docID || again.Body["name"] != "Contract Țurcanu.docx" {
		t.Errorf("the same file again: %d %s", again.Status, again.Raw)
	}

	r = s.Call(t, "GET", "/v1/cases/"+id+"/documents/"+docID+"/text", tok, nil)
	var text api.DocumentTextView
	if err := json.Unmarshal(r.Raw, &text); err != nil || len(text.Text) != 1 {
		t.Fatalf("text: %s", r.Raw)
	}
	if !strings.Contains(text.Text[0].Original, "Ștefan Țurcanu, CNP 1800101221144") {
		t.Errorf("original: %q", text.Text[0].Original)
	}
	if want := "Între {{party0.fullName}}, CNP {{party0.cnp}}, domiciliat în Iași,"; !strings.Contains(text.Text[0].Model, want) {
		t.Errorf("the models' text lacks %q: %q", want, text.Text[0].Model)
	}
	noValues(t, "the models' text", text.Text[0].Model)

	turn := s.Send(t, tok, id, "Documentul: când se restituie garanția?")
	reply, _ := turn.Body["reply"].(string)
	if want := "pagina 1: «Art. 5. Garanția se restituie la încetarea contractului.»"; !strings.Contains(reply, want) {
		t.Errorf("reply %q lacks %q", reply, want)
	}
	if used := stack.ToolsUsed(turn); len(used) != 2 || used[0]["tool"] != "list_documents" || used[1]["tool"] != "read_document" {
		t.Errorf("tools used: %v", used)
	}

	file := s.Call(t, "GET", "/v1/cases/"+id+"/documents/"+docID, tok, nil)
	if file.Status != http.StatusOK || !bytes.Equal(file.Raw, lease) || !strings.HasPrefix(file.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("download: %d %q, %d bytes", file.Status, file.Header.Get("Content-Disposition"), len(file.Raw))
	}

	// Evidence under a legal hold stays.
	admin := s.Mint(t, auth.Identity{Subject: "firm-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	if r := s.Call(t, "PUT", "/v1/admin/cases/"+id+"/hold", admin, map[string]any{"reason": "litigation"}); r.Status != http.StatusOK {
		t.Fatalf("hold: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "DELETE", "/v1/cases/"+id+"/documents/"+docID, tok, nil), http.StatusConflict, "legal-hold")
	if r := s.Call(t, "DELETE", "/v1/admin/cases/"+id+"/hold", admin, nil); r.Status != http.StatusOK {
		t.Fatalf("lift the hold: %d %s", r.Status, r.Raw)
	}
	if !readOfDocument(t, id, "domiciliat în Iași") {
		t.Fatal("the events and transcript hold nothing the model read of the document")
	}
	if r := s.Call(t, "DELETE", "/v1/cases/"+id+"/documents/"+docID, tok, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	// Issue 36, finding 15: what the model read of it is redacted from the events and
	// the transcript (the reply's quote, the model's own words, stays).
	if readOfDocument(t, id, "domiciliat în Iași") {
		t.Error("the events or the transcript still hold the deleted document's text")
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/documents/"+docID, tok, nil), http.StatusNotFound, "not-found")
	if r := s.Call(t, "GET", "/v1/cases/"+id+"/documents", tok, nil); !strings.Contains(string(r.Raw), `"documents":[]`) {
		t.Errorf("list after delete: %s", r.Raw)
	}
	if n := documentBlobs(t, id); n != 0 {
		t.Errorf("%d blobs left after delete", n)
	}
}

// readOfDocument reports whether a case's event log or transcript holds text, as
// the client reads them.
func readOfDocument(t *testing.T, caseID, text string) bool {
	t.Helper()
	events, err := s.Store.ListEvents(t.Context(), caseID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		var body any
		_ = json.Unmarshal(e.Body, &body)
		if raw, _ := json.Marshal(body); strings.Contains(string(raw), text) {
			return true
		}
	}
	recs, err := s.Store.ListRecords(t.Context(), caseID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if strings.Contains(r.Content, text) {
			return true
		}
	}
	return false
}

// noValues fails the test if text holds any of the lease's personal data.
func noValues(t *testing.T, what, text string) {
	t.Helper()
	for _, v := range leaseValues {
		if strings.Contains(text, v) {
			t.Errorf("%s holds %q: %q", what, v, text)
		}
	}
}

// documentBlobs counts the blobs under a case's documents folder.
func documentBlobs(t *testing.T, caseID string) int {
	t.Helper()
	n := 0
	_ = filepath.WalkDir(filepath.Join(s.BlobDir, "cases", caseID, "documents"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// TestUnreadableDocumentFails: a PDF behind a password is stored and fails with its
// reason; uploaded again, it is read again.
func TestUnreadableDocumentFails(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "paolo")
	id := s.CreateCase(t, tok, "Una citazione in tribunale")
	pdf := doctexttest.NewPDF()
	pdf.SetProtection(0, "user secret", "owner secret")
	pdf.AddPage()
	pdf.Cell(0, 10, "Riservato")
	locked := doctexttest.PDFBytes(t, pdf)
	up := s.Upload(t, tok, id, "citazione.pdf", locked)
	if up.Status != http.StatusAccepted {
		t.Fatalf("upload: %d %s", up.Status, up.Raw)
	}
	d := s.WaitForDocument(t, tok, id, up.Body["id"].(string))
	if d.Status != schemas.DocFailed || d.Cause != schemas.CauseProtected || !strings.Contains(d.Reason, "password") {
		t.Errorf("document %+v", d)
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/documents/"+d.ID+"/text", tok, nil), http.StatusConflict, "conflict")
	// Uploading it again reads it again.
	again := s.Upload(t, tok, id, "citazione.pdf", locked)
	if again.Status != http.StatusAccepted || again.Body["id"] != d.ID || again.Body["status"] != schemas.DocReceived {
		t.Errorf("the failed document again: %d %s", again.Status, again.Raw)
	}
	if d := s.WaitForDocument(t, tok, id, d.ID); d.Status != schemas.DocFailed {
		t.Errorf("read again: %+v", d)
	}
}

// TestUploadAbuse: what a hostile client uploads is refused before anything is
// stored, with the status that says why.
func TestUploadAbuse(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "mallory-uploads")
	id := s.CreateCase(t, tok, "A case to fill with junk")
	for _, tc := range []struct {
		name, file string
		data       []byte
		status     int
		typ        string
	}{
		{"a ZIP bomb disguised as a DOCX", "lease.docx", doctexttest.ZipBomb(t, 200<<20), http.StatusRequestEntityTooLarge, "too-large"},
		{"a PDF of 3,000 pages", "summons.pdf", doctexttest.ManyPages(t, 3000), http.StatusRequestEntityTooLarge, "too-large"},
		{"an executable named .pdf", "invoice.pdf", append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 4096)...), http.StatusUnsupportedMediaType, "unsupported-media-type"},
		{"a Windows executable", "scan.png", append([]byte("MZ\x90\x00"), make([]byte, 4096)...), http.StatusUnsupportedMediaType, "unsupported-media-type"},
		{"a PNG of 100 megapixels", "photo.png", doctexttest.PNGHeader(10000, 10000), http.StatusRequestEntityTooLarge, "too-large"},
		{"just over 20 MB of text", "notes.txt", bytes.Repeat([]byte("a"), 20<<20+1), http.StatusRequestEntityTooLarge, "too-large"},
	} {
		r := s.Upload(t, tok, id, tc.file, tc.data)
		if r.Status != tc.status || r.Body["type"] != api.ProblemTypeBase+tc.typ {
			t.Errorf("%s: %d %s, want %d %s", tc.name, r.Status, r.Raw, tc.status, tc.typ)
		}
	}

	// A gigabyte, streamed: refused from its Content-Length, before it is read.
	r := uploadStream(t, s.Client, tok, id, 1<<30)
	if r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("1 GB: %d", r.StatusCode)
	}
	// The same, its length unsaid (chunked): refused once 20 MB have come.
	r = uploadStream(t, s.Client, tok, id, -1)
	if r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("1 GB chunked: %d", r.StatusCode)
	}

	for _, bad := range []string{"", "--x\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nhi\r\n--x--\r\n"} {
		r := s.Call(t, "POST", "/v1/cases/"+id+"/documents", tok, bad, "Content-Type", "multipart/form-data; boundary=x")
		stack.WantProblem(t, r, http.StatusUnprocessableEntity, "invalid-input")
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id+"/documents", tok, nil); !strings.Contains(string(r.Raw), `"documents":[]`) {
		t.Errorf("documents after the abuse: %s", r.Raw)
	}
	if n := documentBlobs(t, id); n != 0 {
		t.Errorf("%d blobs stored by refused uploads", n)
	}
}

// uploadStream uploads a gigabyte of zeros as a text file, with its Content-Length
// (size > 0) or chunked (size < 0), and returns the answer.
func uploadStream(t *testing.T, c *stack.Client, tok, caseID string, size int64) *http.Response {
	t.Helper()
	const boundary = "lexflow-abuse"
	head := fmt.Sprintf("--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.txt\"\r\nContent-Type: text/plain\r\n\r\n", boundary)
	tail := fmt.Sprintf("\r\n--%s--\r\n", boundary)
	n := int64(1 << 30)
	body := io.MultiReader(strings.NewReader(head), io.LimitReader(letters{}, n), strings.NewReader(tail))
	req, err := http.NewRequestWithContext(t.Context(), "POST", c.APIURL+"/v1/cases/"+caseID+"/documents", body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	if size > 0 {
		req.ContentLength = int64(len(head)) + n + int64(len(tail))
	}
	mw := multipart.NewWriter(nil)
	_ = mw.SetBoundary(boundary)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("upload of 1 GB: %v", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, bufio.NewReader(resp.Body))
	return resp
}

// letters reads as endless 'a's: text, so that only the size refuses it.
type letters struct{}

func (letters) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// TestDocumentLimitsComeBeforeTheBody: a case at its documents' limit refuses the next
// upload before reading it: a gigabyte sent without a length gets 429, not 413.
func TestDocumentLimitsComeBeforeTheBody(t *testing.T) {
	t.Parallel()
	limited := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.DocumentsPerCase = 1 })
	tok := s.Token(t, "limited-uploads")
	id := limited.CreateCase(t, tok, "A case with room for one document")
	up := limited.Upload(t, tok, id, "one.txt", []byte("The only document this case may hold."))
	if up.Status != http.StatusAccepted {
		t.Fatalf("first upload: %d %s", up.Status, up.Raw)
	}
	limited.WaitForDocument(t, tok, id, up.Body["id"].(string))
	stack.WantProblem(t, limited.Upload(t, tok, id, "two.txt", []byte("One too many.")), http.StatusTooManyRequests, "too-many-requests")
	if r := uploadStream(t, limited, tok, id, -1); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("1 GB past the limit: %d, want 429 before the body is read", r.StatusCode)
	}
}
