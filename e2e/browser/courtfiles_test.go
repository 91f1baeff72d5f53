package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/portal"
)

// TestCourtFilesInTheBrowser: a client links a Romanian court file to a case, is told
// when the number is not written as the portal writes it, and after the court watch
// runs sees the file's hearing in the case's page; a web app whose API has no portal
// says that court files cannot be linked.
func TestCourtFilesInTheBrowser(t *testing.T) {
	appURL := serveApp(t)
	p := openPage(t, "en-US", 1280, 900)
	p.signIn(appURL, "cw-browser", "acme")
	p.openCase("Recuperarea unei creanțe de la un client")
	const number = "7/3/2031"
	s.Portal.AddFile(portal.Dosar{Numar: number, Institutie: "TribunalulBUCURESTI", StadiuProcesualNume: "Fond"})
	s.Portal.AddHearing(number, "TribunalulBUCURESTI", portal.DosarSedinta{Complet: "C12", Data: portal.Day(2031, 2, 3), Ora: "09:30"})

	p.click("section[aria-labelledby=court-files-title] summary")
	p.fill("#court-file-number", "7-3-2031")
	p.fill("#court-file-court", "TribunalulBUCURESTI")
	p.click("#court-file-form button[type=submit]")
	p.waitFor("the refusal of the number", `document.body.innerText.includes("1234/3/2024")`, 10*time.Second)
	p.fill("#court-file-number", number)
	p.click("#court-file-form button[type=submit]")
	p.waitFor("the linked file", `document.querySelector(".court-files")?.innerText.includes("`+number+`")`, 10*time.Second)
	p.checkA11y("court files")

	s.RunCourtWatch(t)
	p.do("reload the case", chromedp.Reload())
	p.waitFor("the hearing", `document.querySelector(".court-files .hearings")?.innerText.includes("2031-02-03")`, 20*time.Second)
	if got := p.text(".court-files"); !strings.Contains(got, "C12") {
		t.Errorf("the court file shows %q, want its hearing's panel", got)
	}
	p.shot("01-court-file")

	off := serveAppWith(t, func(cfg *config.Config, _ *api.Deps) { cfg.PortalURL = "" })
	q := openPage(t, "en-US", 1280, 900)
	q.signIn(off, "cw-browser-2", "acme")
	q.openCase("A debt to recover")
	q.click("section[aria-labelledby=court-files-title] summary")
	q.fill("#court-file-number", number)
	q.fill("#court-file-court", "TribunalulBUCURESTI")
	q.click("#court-file-form button[type=submit]")
	q.waitFor("the refusal", `document.querySelector("#court-files-note")?.innerText.includes("not connected to the courts' portal")`, 10*time.Second)
}
