package schemas

import (
	"strings"
	"testing"
)

// TestDraftWorkflowIDIsPrintableASCII: a draft name the model wrote in Romanian, or
// far too long, still makes a workflow ID the server takes (printable ASCII, bounded),
// two names two IDs; a plain name is kept as it is.
func TestDraftWorkflowIDIsPrintableASCII(t *testing.T) {
	long := strings.Repeat("Cerere_", 500)
	ids := map[string]string{}
	for _, name := range []string{"Notificare de plată", "Notificare de plata", long, long + "x", "100%", "Cerere_chemare_judecata"} {
		id := DraftWorkflowID("c1", name, 2)
		for _, c := range []byte(id) {
			if c < 0x20 || c > 0x7e {
				t.Errorf("%q: the ID %q holds byte %#x", name, id, c)
			}
		}
		if len(id) > 200 {
			t.Errorf("%q: an ID of %d bytes", name, len(id))
		}
		if other, ok := ids[id]; ok {
			t.Errorf("%q and %q share the ID %q", name, other, id)
		}
		ids[id] = name
	}
	if got := DraftWorkflowID("c1", "Cerere_chemare_judecata", 2); got != "case:c1:draft:Cerere_chemare_judecata:rev-2" {
		t.Errorf("a plain name's ID = %q", got)
	}
}
