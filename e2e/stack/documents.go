package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// Upload sends a document to a case as the web app does: multipart/form-data, the
// file in a part named file.
func (c *Client) Upload(t testing.TB, tok, caseID, name string, data []byte) Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return c.Call(t, "POST", "/v1/cases/"+caseID+"/documents", tok, body.String(), "Content-Type", mw.FormDataContentType())
}

// WaitForDocument follows the case's event stream until the document is listed read or
// failed, at most two minutes (OCR of a page takes seconds), and returns its record.
func (c *Client) WaitForDocument(t *testing.T, tok, caseID, docID string) schemas.Document {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	events := OpenEvents(ctx, t, c.APIURL, tok, caseID, "")
	for {
		e, ok := <-events
		if !ok {
			t.Fatalf("document %s: not read within two minutes", docID)
		}
		if e.Type != schemas.EventDocumentRead && e.Type != schemas.EventDocumentFailed {
			continue
		}
		var body schemas.DocumentEvent
		if err := json.Unmarshal(e.View.Body, &body); err != nil || body.DocID != docID {
			continue
		}
		r := c.Call(t, "GET", "/v1/cases/"+caseID+"/documents", tok, nil)
		var list struct {
			Documents []schemas.Document `json:"documents"`
		}
		if err := json.Unmarshal(r.Raw, &list); err != nil {
			t.Fatalf("documents: %s", r.Raw)
		}
		for _, d := range list.Documents {
			if d.ID == docID && d.Status != schemas.DocReceived {
				return d
			}
		}
		// An earlier reading's event (a failed document uploaded again): read on.
	}
}
