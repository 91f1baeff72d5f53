package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lexflow/lexflow/internal/doctext/doctexttest"
)

// TestDocumentsInTheBrowser: a client adds the landlord as a party, uploads their
// lease, sees its summary with the landlord as a placeholder, compares the text as
// read with what the models read, and asks about a clause: the answer quotes it with
// placeholders only.
func TestDocumentsInTheBrowser(t *testing.T) {
	appURL := serveApp(t)
	p := openPage(t, "en-US", 1280, 900)
	p.signIn(appURL, "dora", "acme")
	p.openCase("Proprietarul nu îmi restituie garanția din contractul de închiriere")

	p.click("section[aria-labelledby=parties-title] summary")
	p.fill("#party-first_name", "Ștefan")
	p.fill("#party-last_name", "Țurcanu")
	p.fill("#party-cnp", "1800101221144")
	p.click("#party-form button[type=submit]")
	p.waitFor("the party", `document.querySelector(".parties")?.innerText.includes("party0")`, 10*time.Second)

	file := filepath.Join(t.TempDir(), "Contract Țurcanu.docx")
	if err := os.WriteFile(file, doctexttest.DOCX(t, doctexttest.LeaseRO), 0o600); err != nil {
		t.Fatal(err)
	}
	p.do("choose the lease", chromedp.SetUploadFiles("#document-file", []string{file}))
	p.waitFor("the lease's summary", `document.querySelector(".documents li.read .summary")?.innerText.includes("{{party0.fullName}}")`, time.Minute)
	if summary := p.text(".documents li.read .summary"); strings.Contains(summary, "Țurcanu") || strings.Contains(summary, "1800101221144") {
		t.Errorf("the summary shows the party's data: %q", summary)
	}
	p.checkA11y("documents")
	p.shot("01-document-read")

	p.click(".documents li.read .row button:nth-child(2)")
	p.waitFor("the side-by-side text", `document.querySelector(".doc-view pre.model")?.innerText.includes("{{party0.cnp}}")`, 10*time.Second)
	if original := p.text(".doc-view pre.original"); !strings.Contains(original, "Ștefan Țurcanu, CNP 1800101221144") {
		t.Errorf("the original text: %q", original)
	}
	p.checkA11y("side by side")
	p.shot("02-side-by-side")

	p.send("Documentul: când se restituie garanția?")
	p.waitFor("the answer", turnDone(1), time.Minute)
	if reply := p.text("article.turn p.reply"); !strings.Contains(reply, "Art. 5. Garanția se restituie") || strings.Contains(reply, "Țurcanu") {
		t.Errorf("reply = %q, want the clause quoted without the party's name", reply)
	}
	p.shot("03-answer")
}
