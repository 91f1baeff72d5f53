package tools

import (
	"strings"
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

// TestFormatRagSearch: each passage under its source, the error and the no-match
// texts, and no more passages than the cap whatever the result holds.
func TestFormatRagSearch(t *testing.T) {
	var passages []schemas.RagPassage
	for range 12 {
		passages = append(passages, schemas.RagPassage{Source: schemas.RagSourceDocument, DocumentID: "d1", Title: "lease.pdf", Page: 2, Text: "Evacuarea"})
	}
	passages[1] = schemas.RagPassage{Source: schemas.RagSourceTranscript, Turn: 3, Role: "user", Text: "{{party0.fullName}} a spus"}
	res := schemas.RagSearchResult{Status: schemas.ResultSuccess, Passages: passages, Documents: 1, Pages: 4, Messages: 6}
	text, ok := format(t, schemas.ToolRagSearch, string(mustJSON(t, res)))
	if !ok || !strings.Contains(text, "[1] document d1 «lease.pdf», page 2:\nEvacuarea") || !strings.Contains(text, "[2] transcript, turn 3, user:\n{{party0.fullName}} a spus") {
		t.Errorf("passages shown as %q", text)
	}
	if strings.Contains(text, "[11]") || !strings.HasPrefix(text, "10 passages") {
		t.Errorf("more than %d passages shown: %q", schemas.MaxRagResults, text)
	}
	text, ok = format(t, schemas.ToolRagSearch, string(mustJSON(t, schemas.RagSearchResult{Status: schemas.ResultSuccess, Documents: 2, Messages: 4})))
	if !ok || !strings.Contains(text, "no passage of this case's 2 documents and 4 messages") {
		t.Errorf("no match shown as %q", text)
	}
	text, ok = format(t, schemas.ToolRagSearch, string(mustJSON(t, schemas.RagSearchResult{Status: schemas.ResultError, ErrorMessage: schemas.RagGlobalRefused})))
	if ok || !strings.Contains(text, "global search is not available") {
		t.Errorf("refusal shown as %q (ok %v)", text, ok)
	}
}
