package api

import (
	"mime"
	"testing"
)

// TestAttachmentEscapesTheName checks that a hostile draft name cannot add parameters
// to, or break out of, the Content-Disposition header.
func TestAttachmentEscapesTheName(t *testing.T) {
	for _, name := range []string{"Cerere_rev1.pdf", `a"; filename=evil.exe`, "x\\\"y.pdf", "Notificare plată.pdf"} {
		v := attachment(name)
		disp, params, err := mime.ParseMediaType(v)
		if err != nil || disp != "attachment" || len(params) != 1 || params["filename"] != name {
			t.Errorf("attachment(%q) = %q, parsed %q %v %v", name, v, disp, params, err)
		}
	}
}
