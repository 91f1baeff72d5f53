package offline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// TestDocumentRule: "documentul: …" lists the documents, reads the newest one read,
// and answers quoting its best line, placeholders as they are; the texts are the
// tools' own formatters' (list_documents and read_document).
func TestDocumentRule(t *testing.T) {
	offered := map[string]bool{"list_documents": true, "read_document": true}
	const id = "d0123456789abcdef0123456789abcdef"
	listed := format(t, schemas.ToolListDocuments, schemas.ListDocumentsResult{Status: "success", Documents: []schemas.DocumentListing{
		{DocumentID: "d" + strings.Repeat("1", 32), Title: "scan.png", Kind: "png", Status: "failed", Reason: "blank"},
		{DocumentID: id, Title: "contract.docx", Kind: "docx", Status: "read", Pages: 1}}})
	read := format(t, schemas.ToolReadDocument, schemas.ReadDocumentResult{Status: "success", DocumentID: id, Title: "contract.docx",
		Pages: 1, FromPage: 1, ToPage: 1, Text: []schemas.DocumentPage{{N: 1, Text: "CONTRACT DE ÎNCHIRIERE\n" +
			"Între {{party0.fullName}}, CNP {{party0.cnp}}, proprietar.\nArt. 5. Garanția se restituie la încetarea contractului."}}})
	user := "Documentul: când se restituie garanția?"
	turn := []message{msg("system", "Case ID: c-1\nLanguage: ro"), msg("user", user)}

	r := decide(turn, offered)
	if len(r.calls) != 1 || r.calls[0].Function.Name != "list_documents" {
		t.Fatalf("first step %+v", r)
	}
	turn = append(turn, message{Role: "assistant", ToolCalls: r.calls}, message{Role: "tool", ToolCallID: r.calls[0].ID, Content: mustJSON(listed)})
	r = decide(turn, offered)
	if len(r.calls) != 1 || r.calls[0].Function.Name != "read_document" || r.calls[0].Function.Arguments != `{"case_id":"c-1","document_id":"`+id+`"}` {
		t.Fatalf("second step %+v", r)
	}
	turn = append(turn, message{Role: "assistant", ToolCalls: r.calls}, message{Role: "tool", ToolCallID: r.calls[0].ID, Content: mustJSON(read)})
	r = decide(turn, offered)
	if want := "Din «contract.docx», pagina 1: «Art. 5. Garanția se restituie la încetarea contractului.»"; r.content != want || len(r.calls) > 0 {
		t.Errorf("answer %q, want %q", r.content, want)
	}

	// Without a document read, the answer says so.
	none := format(t, schemas.ToolListDocuments, schemas.ListDocumentsResult{Status: "success"})
	listCall := toolCall{ID: "c"}
	listCall.Function.Name = "list_documents"
	r = decide([]message{turn[0], turn[1], {Role: "assistant", ToolCalls: []toolCall{listCall}}, {Role: "tool", ToolCallID: "c", Content: mustJSON(none)}}, offered)
	if r.content != documentPhrases["ro"].none {
		t.Errorf("no documents: %q", r.content)
	}
}

// format is a tool's result as its formatter shows it to the model.
func format(t *testing.T, name string, v any) string {
	t.Helper()
	tool, _ := tools.Get(name)
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := tool.Format(name, raw)
	return text
}

func TestSummarizeDocument(t *testing.T) {
	msgs := []message{msg("system", "Language: it\nRole: document"), msg("user",
		"Document: citazione.pdf\nPages: 1\n\n--- page 1 ---\nATTO DI CITAZIONE\nIl sig. {{party0.fullName}}, codice fiscale {{party0.cnp}},\ncita {{party1.companyName}}.\nIBAN {{doc.iban.1}}")}
	got := decide(msgs, nil).content
	want := "citazione.pdf (1 pagine): ATTO DI CITAZIONE Il sig. {{party0.fullName}}, codice fiscale {{party0.cnp}}, cita {{party1.companyName}}. " +
		"Vi sono nominati: {{party0.fullName}}, {{party0.cnp}}, {{party1.companyName}}, {{doc.iban.1}}."
	if got != want {
		t.Errorf("summary\n %q\nwant %q", got, want)
	}
}
