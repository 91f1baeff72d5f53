package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// listedSummaryChars caps each document's summary in list_documents' text.
const listedSummaryChars = 400

// formatListDocuments shows one line per document: its ID, title, kind, status and
// pages, and its summary or the reason it failed.
func formatListDocuments(name string, result []byte) (string, string) {
	var r schemas.ListDocumentsResult
	if json.Unmarshal(result, &r) != nil || r.Status == schemas.ResultError {
		return formatStatus(name, result)
	}
	if len(r.Documents) == 0 {
		return "The client has uploaded no documents to this case.", ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d documents:", len(r.Documents))
	for _, d := range r.Documents {
		fmt.Fprintf(&b, "\n- %s «%s» (%s, %s", d.DocumentID, d.Title, d.Kind, d.Status)
		if d.Pages > 0 {
			fmt.Fprintf(&b, ", %d pages", d.Pages)
		}
		b.WriteString(")")
		switch {
		case d.Reason != "":
			b.WriteString(": could not be read: " + d.Reason)
		case d.Summary != "":
			b.WriteString(": " + Clip(strings.Join(strings.Fields(d.Summary), " "), listedSummaryChars))
		}
	}
	return b.String(), ""
}

// formatReadDocument shows the pages read, each under its number, and where the text
// goes on; the activity has bounded it already.
func formatReadDocument(name string, result []byte) (string, string) {
	var r schemas.ReadDocumentResult
	if json.Unmarshal(result, &r) != nil || r.Status == schemas.ResultError {
		return formatStatus(name, result)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Document %s «%s», pages %d–%d of %d (pseudonymized):", r.DocumentID, r.Title, r.FromPage, r.ToPage, r.Pages)
	for _, p := range r.Text {
		fmt.Fprintf(&b, "\n\n--- page %d ---\n%s", p.N, p.Text)
	}
	if r.NextPage > 0 {
		fmt.Fprintf(&b, "\n\n(The text goes on at page %d.)", r.NextPage)
	}
	return Clip(b.String(), schemas.MaxReadChars+2000), ""
}
