package offline

import (
	"strings"
	"testing"
)

func TestDraftCall(t *testing.T) {
	args, ok := draftCall("draft: Cerere_chemare_judecata rev 2\n# Cerere\nReclamant: {{party0.lastName}}")
	if !ok || args["draft_name"] != "Cerere_chemare_judecata" || args["revision"] != 2 || !strings.HasPrefix(args["markdown_content"].(string), "# Cerere") {
		t.Fatalf("draftCall = %v, %v", args, ok)
	}
	if args, ok := draftCall("proiect: Notificare\nText"); !ok || args["revision"] != 1 {
		t.Fatalf("draftCall without revision = %v, %v", args, ok)
	}
	if _, ok := draftCall("draft: no body"); ok {
		t.Fatal("a draft without Markdown was read as a call")
	}
}
