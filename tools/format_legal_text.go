package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// formatReadLegalText shows a legal text's page under a heading that says what it is,
// how current, whether in force, where it is published and which page of how many,
// and where the text goes on; the activity has bounded the page already.
func formatReadLegalText(name string, result []byte) (string, string) {
	var r schemas.ReadLegalTextResult
	if json.Unmarshal(result, &r) != nil || r.Status == schemas.ResultError {
		return formatStatus(name, result)
	}
	var b strings.Builder
	b.WriteString(or(r.Reference, r.DocID))
	if r.Title != "" && r.Title != r.Reference {
		b.WriteString(" — " + Clip(r.Title, 300))
	}
	fmt.Fprintf(&b, "\ndoc_id: %s", r.DocID)
	if r.AsOf != "" {
		fmt.Fprintf(&b, "; text as of %s", r.AsOf)
	}
	if r.Version != "" {
		b.WriteString("; " + r.Version)
	}
	switch {
	case r.InForce == nil:
	case *r.InForce:
		b.WriteString("; in force")
	default:
		b.WriteString("; REPEALED: not current law")
	}
	if r.URL != "" {
		b.WriteString("\nURL: " + r.URL)
	}
	fmt.Fprintf(&b, "\npage %d of %d\n\n%s", r.Page, r.Pages, r.Text)
	if r.Page < r.Pages {
		fmt.Fprintf(&b, "\n\n(The text goes on at page %d: read_legal_text with page %d.)", r.Page+1, r.Page+1)
	}
	return Clip(b.String(), schemas.LegalTextPageChars+2000), ""
}
