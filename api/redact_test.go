package api

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

// TestRedactedBody: a tool summary that names the deleted document, in a
// tool.finished or in a turn's calls and sources, becomes the note, and the call's
// kept raw result is named for overwriting; summaries of other documents, and other
// events, are left as they are.
func TestRedactedBody(t *testing.T) {
	const doc, note = "d1234", "[redacted]"
	finished := `{"tool":"read_document","status":"ok","summary":"Document d1234 «Document 1234» text","result_ref":"cases/c/results/turn-1/call-2-read_document.json"}`
	turn := `{"reply":"quoted","tools_used":[{"tool":"list_documents","summary":"1 documents:\n- d1234 «x»: summary"},{"tool":"kb_search","summary":"other"}],` +
		`"sources":[{"tool":"read_document","summary":"Document d1234 text"}]}`
	for _, c := range []struct {
		typ, body string
		changed   bool
		refs      []string
	}{
		{schemas.EventToolFinished, finished, true, []string{"cases/c/results/turn-1/call-2-read_document.json"}},
		{schemas.EventTurnCompleted, turn, true, nil},
		{schemas.EventToolFinished, strings.ReplaceAll(finished, doc, "d9999"), false, nil},
		{schemas.EventModelDelta, `{"text":"Document d1234 text"}`, false, nil},
	} {
		out, refs, changed := redactedBody(c.typ, json.RawMessage(c.body), doc, note)
		if changed != c.changed || !slices.Equal(refs, c.refs) {
			t.Errorf("%s: changed %v, refs %v; want %v, %v", c.typ, changed, refs, c.changed, c.refs)
		}
		if !changed {
			if string(out) != c.body {
				t.Errorf("%s: unchanged body became %s", c.typ, out)
			}
			continue
		}
		if strings.Contains(string(out), "text") || strings.Contains(string(out), "summary\":\"1 documents") {
			t.Errorf("%s: redacted body still holds the text: %s", c.typ, out)
		}
		if c.typ == schemas.EventTurnCompleted && (!strings.Contains(string(out), `"other"`) || !strings.Contains(string(out), `"quoted"`)) {
			t.Errorf("the turn lost what did not name the document: %s", out)
		}
	}
}
