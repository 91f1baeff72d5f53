package browser

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// turnDone holds once the page's n-th turn has its final reply.
func turnDone(n int) string {
	return fmt.Sprintf(`document.querySelectorAll("article.turn p.reply").length >= %d`, n)
}

// TestClientStory is the client's whole story in the browser, in Romanian: sign in,
// open a case, see the welcome and the tiering notice, pay through the test checkout,
// ask about art. 1357 Cod civil and watch the answer stream in with a verified citation, switch the
// tool off and see it unused, add a party, request a draft and download its PDF; then,
// at phone width, the memory and closing the case.
func TestClientStory(t *testing.T) {
	appURL := serveApp(t)
	p := openPage(t, "ro-RO", 1280, 900)
	p.do("open the app", chromedp.Navigate(appURL+"/"))

	// The interface follows the browser's language: Romanian.
	p.waitFor("the sign-in form", `document.querySelector("#dev-sub") !== null`, 10*time.Second)
	if got := p.text("h1"); got != "Autentificare" {
		t.Errorf("sign-in title = %q, want Romanian", got)
	}
	p.checkA11y("sign-in")
	p.shot("01-sign-in")
	user := fmt.Sprintf("maria%d", time.Now().UnixNano()%1e6)
	p.fill("#dev-sub", user)
	p.click(`form button[type=submit]`)
	p.waitFor("the case list", `document.querySelector("#case-description") !== null`, 10*time.Second)
	p.checkA11y("case list")
	p.shot("02-cases")

	// Open a case; with no subscription, tiering ends in the payment step.
	p.fill("#case-description", "Proprietarul nu îmi returnează garanția și vreau să îl chem în judecată")
	p.click(`form[aria-labelledby=new-case-title] button[type=submit]`)
	p.waitFor("the welcome", `[...document.querySelectorAll(".msg.system.notice")].some(n => n.innerText.startsWith("Bun venit la Lexflow!"))`, time.Minute)
	p.waitFor("the tiering notice", `[...document.querySelectorAll(".msg.system.notice")].some(n => n.innerText.includes("Nivelul"))`, time.Minute)
	p.waitFor("the Pay for case button", `[...document.querySelectorAll(".pay button")].some(b => b.innerText === "Plătește Cazul")`, 30*time.Second)
	if price := p.text(".pay p"); !strings.Contains(price, "EUR") {
		t.Errorf("payment step = %q, want the price in EUR", price)
	}
	if got := eval[bool](p, `document.querySelector("#message").disabled`); !got {
		t.Error("the composer is enabled while the case awaits its payment")
	}
	p.checkA11y("payment")
	p.shot("03-payment")

	// Pay on the test provider's page; it sends the signed webhook and comes back.
	p.click(".pay button")
	p.waitFor("the test checkout page", `document.querySelector("#pay") !== null`, 10*time.Second)
	p.click("#pay")
	p.waitFor("the active case", `document.querySelector(".steps li.current")?.innerText.includes("Lucru") && !document.querySelector("#message").disabled`, 30*time.Second)

	// Ask about art. 1357 Cod civil: record the answer's text as it streams.
	eval[bool](p, `(() => {
		window.partials = new Set();
		new MutationObserver(() => {
			const step = [...document.querySelectorAll("article.turn p.step:not(.interim)")].pop();
			if (step && !document.querySelector("article.turn p.reply")) window.partials.add(step.textContent);
		}).observe(document.querySelector(".transcript"), {subtree: true, childList: true, characterData: true});
		return true;
	})()`)
	p.send("art. 1357 Cod civil")
	p.waitFor("the first answer", turnDone(1), time.Minute)
	if reply := p.text("article.turn p.reply"); !strings.Contains(reply, "1357") || !strings.Contains(reply, "Surse:") {
		t.Errorf("first reply = %q, want the article and its sources", reply)
	}
	if n := eval[int](p, `window.partials.size`); n < 2 {
		t.Errorf("the answer appeared in %d pieces, want it to stream in several", n)
	}
	if tools := p.text("article.turn:nth-of-type(1) .tool-calls"); !strings.Contains(tools, "normattiva_search") || !strings.Contains(tools, "gata") {
		t.Errorf("tool calls of the first turn = %q, want normattiva_search done", tools)
	}
	cite := p.text(".citations li.verified")
	if !strings.Contains(cite, "1357") || !strings.Contains(cite, "verificată") || !strings.Contains(cite, "text la 2009-07-24") {
		t.Errorf("citation = %q, want art. 1357 verified", cite)
	}
	p.shot("04-chat")

	// Switch Normattiva off: the next turn does not use it.
	p.click(`button[data-toggle="normattiva_enabled"]`)
	if got := eval[string](p, `document.querySelector('button[data-toggle="normattiva_enabled"]').getAttribute("aria-pressed")`); got != "false" {
		t.Fatalf("Normattiva toggle aria-pressed = %q after switching it off", got)
	}
	if badge := p.text(`button[data-toggle="lex_search_enriched_enabled"] .badge-analisi`); badge != "Analisi" {
		t.Errorf("lex_search_enriched's badge = %q, want Analisi", badge)
	}
	if icons := eval[string](p, `[...document.querySelectorAll(".toggles button[data-toggle]")].map(b => b.querySelector("svg.icon")?.dataset.icon || "none").join(",")`); icons != "globe,scale,euro,gavel,book,search,sparkles,brain,database,scale" {
		t.Errorf("the toggle bar's icons = %q, want LEXE's, then legislation_search's", icons)
	}
	if got := eval[string](p, `document.querySelector('button[data-toggle="legislation_search_enabled"]').getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("legislation_search's toggle aria-pressed = %q, want on by default", got)
	}
	p.send("art. 1357 Cod civil")
	p.waitFor("the second answer", turnDone(2), time.Minute)
	if tools := p.text("article.turn:nth-of-type(2) .tool-calls"); strings.Contains(tools, "normattiva_search") {
		t.Errorf("the turn with Normattiva off used it: %q", tools)
	}

	// Parties: a bad CNP is refused with a readable message; a good party is listed.
	p.click(".side details summary")
	p.fill("#party-first_name", "Ion")
	p.fill("#party-last_name", "Popescu")
	p.fill("#party-cnp", "123")
	p.click(`#party-form button[type=submit]`)
	p.waitFor("the CNP error", `document.getElementById("alert").innerText.includes("13 cifre")`, 5*time.Second)
	p.fill("#party-cnp", "1800101221144")
	p.fill("#party-address", "Str. Lungă 1, Brașov")
	p.click(`#party-form button[type=submit]`)
	p.waitFor("the party in the list", `document.querySelector(".parties")?.innerText.includes("party0")`, 10*time.Second)

	// A draft: it appears when its draft.ready event arrives, and downloads as a PDF.
	// It cites an article the Codul civil lacks: the notice and the turn's citations say so.
	p.send("draft: Cerere_chemare_judecata\n# Cerere de chemare în judecată\n\nReclamant: **{{party0.fullName}}**, CNP {{party0.cnp}}, domiciliat în {{party0.address}}, potrivit art. 9999 C.civ.")
	p.waitFor("the draft", `document.querySelector(".drafts")?.innerText.includes("Cerere_chemare_judecata")`, time.Minute)
	p.waitFor("the draft's citations to check", `document.querySelector(".draft-to-check")?.innerText.includes("art. 9999 C.civ.")`, 10*time.Second)
	p.waitFor("the not-found citation", `[...document.querySelectorAll(".citations li.not_found")].some((li) => li.innerText.includes("9999") && li.innerText.includes("negăsită"))`, 10*time.Second)
	if chat := p.text(".transcript"); strings.Contains(chat, "1800101221144") || strings.Contains(chat, "Popescu") {
		t.Errorf("the chat shows a party's data: %q", chat)
	}
	p.checkA11y("case")
	p.shot("05-draft")
	pdf := p.download("the draft", func() { p.click(".drafts button") })
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("the download is not a PDF: %.40q", pdf)
	}

	// At phone width nothing is wider than the screen.
	p.do("phone width", chromedp.EmulateViewport(390, 844))
	if wide := eval[bool](p, `document.documentElement.scrollWidth > window.innerWidth`); wide {
		t.Error("at phone width the case page scrolls sideways")
	}
	p.shot("06-phone")

	// The memory, edited; then the case, closed with a second press.
	caseURL := eval[string](p, "location.href")
	p.do("open the memory", chromedp.Navigate(appURL+"/#/memory"))
	p.fill("#memory-text", "Locuiește în Cluj; preferă răspunsuri scurte.")
	p.click("form.card button[type=submit]")
	p.waitFor("the saved memory", `document.querySelector("form.card [role=status]")?.innerText === "Salvat."`, 10*time.Second)
	p.do("back to the case", chromedp.Navigate(caseURL))
	p.waitFor("the case page", `document.querySelector("#close-note") !== null && !document.querySelector("#close-note").disabled`, 10*time.Second)
	p.click("#close-note ~ button")
	p.click("#close-note ~ button")
	p.waitFor("the closed case", `document.querySelector(".steps li.current")?.innerText.includes("Închis") && document.querySelector("#message").disabled`, 30*time.Second)

	// Deleted, with a second press: the case list no longer has it, and it is gone.
	caseID := caseURL[strings.LastIndex(caseURL, "/")+1:]
	p.click("#erase-case")
	p.click("#erase-case")
	p.waitFor("the notice of the erasure", `document.getElementById("alert").innerText.includes("Cazul a fost șters")`, 30*time.Second)
	p.waitFor("the case list", `document.querySelector("ul.cases:not([aria-busy])") !== null`, 10*time.Second)
	if list := p.text("main"); strings.Contains(list, "Proprietarul") {
		t.Errorf("the case list still shows the erased case: %q", list)
	}
	tok := s.Mint(t, auth.Identity{Subject: user, Roles: []string{schemas.RoleUser}})
	if r := s.Call(t, "GET", "/v1/cases/"+caseID+"/erasure", tok, nil); r.Status != http.StatusOK || r.Body["status"] != "erased" {
		t.Errorf("the erasure's receipt: %d %s", r.Status, r.Raw)
	}
}
