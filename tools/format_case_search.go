package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// formatRagSearch shows rag_search's passages, best first, each under its source: the
// document (title, ID and page) or the turn and who wrote the message; at most
// schemas.MaxRagResults of them, each at most schemas.RagPassageChars characters.
func formatRagSearch(name string, result []byte) (string, string) {
	var r schemas.RagSearchResult
	if json.Unmarshal(result, &r) != nil || r.Status == schemas.ResultError {
		return formatStatus(name, result)
	}
	if len(r.Passages) == 0 {
		return fmt.Sprintf("[rag_search: no passage of this case's %d documents and %d messages matches; try other words, or list_documents and read_document]",
			r.Documents, r.Messages), ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d passages of this case (searched %d documents, %d pages, %d messages):", min(len(r.Passages), schemas.MaxRagResults), r.Documents, r.Pages, r.Messages)
	if r.Skipped > 0 {
		fmt.Fprintf(&b, "\n(%d documents were not searched: the search reads a bounded amount of text; read them with read_document)", r.Skipped)
	}
	for i, p := range first(r.Passages, schemas.MaxRagResults) {
		if p.Source == schemas.RagSourceDocument {
			fmt.Fprintf(&b, "\n\n[%d] document %s «%s», page %d:\n", i+1, p.DocumentID, p.Title, p.Page)
		} else {
			fmt.Fprintf(&b, "\n\n[%d] transcript, turn %d, %s:\n", i+1, p.Turn, p.Role)
		}
		b.WriteString(Clip(p.Text, schemas.RagPassageChars))
	}
	return b.String(), ""
}
