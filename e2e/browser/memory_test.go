package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestMemoryStory is the memory page's story, in English: a client tells the assistant
// about themselves and closes the case; the page "What Lexflow remembers about you"
// then shows the facts Lexflow proposes from it; the client remembers one, rejects the
// other, edits the one kept and deletes it.
func TestMemoryStory(t *testing.T) {
	appURL := serveApp(t)
	p := openPage(t, "en-US", 1280, 900)
	p.signIn(appURL, "mara", "acme")
	p.openCase("My landlord keeps my deposit after I moved out")
	p.send("I run a bakery in Cluj. My landlord kept the deposit of 2000 lei.")
	p.waitFor("the answer", turnDone(1), time.Minute)

	p.waitFor("the case page", `document.querySelector("#close-note") !== null && !document.querySelector("#close-note").disabled`, 10*time.Second)
	p.click("#close-note ~ button")
	p.click("#close-note ~ button")
	p.waitFor("the closed case", `document.querySelector(".steps li.current")?.innerText.includes("Closed") && document.querySelector("#message").disabled`, 30*time.Second)

	// The proposals come once the closed case's ProposeMemory has run: reopen the page
	// until they are there.
	deadline := time.Now().Add(30 * time.Second)
	for {
		p.do("open the memory", chromedp.Navigate(appURL+"/#/memory"), chromedp.Reload())
		p.waitFor("the facts", `document.querySelector("#memory-facts:not([aria-busy])") !== null`, 10*time.Second)
		if eval[int](p, `document.querySelectorAll("#facts-proposed li").length`) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no proposals after 30 s: %q", p.text("#memory-facts"))
		}
	}
	if h1 := p.text("h1"); h1 != "What Lexflow remembers about you" {
		t.Errorf("title = %q", h1)
	}
	proposals := p.text("#facts-proposed")
	if !strings.Contains(proposals, "The client said: «I run a bakery in Cluj.»") || !strings.Contains(proposals, "The client said: «My landlord kept the deposit of 2000 lei.»") {
		t.Errorf("proposals = %q", proposals)
	}
	p.checkA11y("memory, proposals")
	p.shot("memory-01-proposals")

	p.click("#facts-proposed li:first-child button.approve")
	p.waitFor("the kept fact", `document.querySelectorAll("#facts-kept li").length === 1 && document.querySelectorAll("#facts-proposed li").length === 1`, 10*time.Second)
	p.click("#facts-proposed li:first-child button.reject")
	p.waitFor("no more proposals", `document.querySelector("#facts-proposed") === null && document.querySelectorAll("#facts-kept li").length === 1`, 10*time.Second)
	if kept := p.text("#facts-kept .fact-text"); kept != "The client said: «I run a bakery in Cluj.»" {
		t.Errorf("kept = %q", kept)
	}

	p.click("#facts-kept li button.edit")
	p.waitFor("the edit form", `document.querySelector("#facts-kept form textarea") !== null`, 10*time.Second)
	p.fill("#facts-kept form textarea", "Runs a bakery in Cluj.")
	p.click("#facts-kept form button[type=submit]")
	p.waitFor("the edited fact", `document.querySelector("#facts-kept .fact-text")?.innerText === "Runs a bakery in Cluj."`, 10*time.Second)
	p.checkA11y("memory, kept")
	p.shot("memory-02-kept")

	p.click("#facts-kept li button.delete")
	p.waitFor("nothing remembered", `document.querySelector("#facts-kept") === null && document.querySelector("#memory-facts")?.innerText.includes("Nothing remembered yet.")`, 10*time.Second)
}
