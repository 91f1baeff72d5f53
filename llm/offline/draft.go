package offline

import (
	"fmt"
	"regexp"
	"strings"
)

// draftRe reads "draft: NAME [rev N]" and the Markdown after it.
var draftRe = regexp.MustCompile(`(?is)^\s*(?:draft|proiect|bozza)\s*:\s*([^\n]+?)(?:\s+rev(?:ision|izia|isione)?\s*(\d+))?\s*\n(.+)$`)

// draftCall reads "draft: NAME [rev N]" followed by the Markdown on the next lines as a
// generate_draft_pdf call; revision 1 unless given.
func draftCall(user string) (map[string]any, bool) {
	m := draftRe.FindStringSubmatch(user)
	if m == nil {
		return nil, false
	}
	rev := 1
	if m[2] != "" {
		fmt.Sscan(m[2], &rev)
	}
	return map[string]any{"draft_name": strings.TrimSpace(m[1]), "revision": rev, "markdown_content": strings.TrimSpace(m[3])}, true
}
