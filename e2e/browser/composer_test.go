package browser

import (
	"testing"
	"time"

	"github.com/lexflow/lexflow/e2e/stack"
)

// TestSendRightAfterATurn: when a turn ends, the page reads the case again, but the
// case's record drops its busy mark only after the turn's end has reached the event
// log; read in between, it still says busy. Here every write of the case's status
// takes a second, so the page's read 200 ms after each turn finds the record busy,
// and the client must still be able to send the next message (p.send waits a minute
// for the button): after answering tiering's question, and after a chat turn.
// Tiering's question, too, reaches the record after its notice: the page must show it
// as what comes next.
func TestSendRightAfterATurn(t *testing.T) {
	appURL := serveApp(t, stack.SlowStatus+"=1s")
	p := openPage(t, "en-US", 1280, 900)
	p.signIn(appURL, "composer-browser", "acme")
	// Too short to tier: tiering asks its question, and the answer is a turn.
	p.waitFor("the case form", `document.querySelector("#case-description") !== null`, 10*time.Second)
	p.fill("#case-description", "Help me please")
	p.click(`form[aria-labelledby=new-case-title] button[type=submit]`)
	p.waitFor("tiering's question", `[...document.querySelectorAll(".msg.system.notice")].some((n) => n.innerText.includes("dispute in court"))`, time.Minute)
	p.waitFor("tiering's question as what comes next", `document.querySelector(".next blockquote")?.innerText.includes("dispute in court")`, 15*time.Second)
	p.send("No court case, about 500 euros kept by my landlord.")
	p.waitFor("the tier", turnDone(1)+` && document.querySelector(".steps li.current")?.innerText.includes("Work")`, time.Minute)
	p.send("fact: The lease ended on 2026-02-28")
	p.waitFor("the first chat answer", turnDone(2), time.Minute)
	p.send("fact: The deposit was 2000 lei")
	p.waitFor("the second chat answer", turnDone(3), time.Minute)
}
