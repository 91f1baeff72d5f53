package browser

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestTimelineInTheBrowser: a client records a dated fact and asks for the case's
// timeline in the chat; the chart appears on the case page when its timeline.ready
// event arrives, at the size the call asked, and is still there after a reload.
func TestTimelineInTheBrowser(t *testing.T) {
	appURL := serveApp(t)
	p := openPage(t, "en-US", 1280, 900)
	p.signIn(appURL, "timeline-browser", "acme")
	p.openCase("My landlord keeps the deposit after the lease ended")
	p.waitFor("no timeline yet", `document.querySelector(".case-timeline")?.innerText.includes("No timeline yet")`, 10*time.Second)
	p.send("fact: The lease ended on 2026-02-28")
	p.waitFor("the fact's answer", turnDone(1), time.Minute)
	p.send("timeline: The deposit")
	// The chart is drawn in the turn, by its generate_image call, and shown when its
	// timeline.ready event arrives, before the turn's end.
	p.waitFor("the timeline's answer", turnDone(2), time.Minute)
	const shown = `document.querySelector("#timeline-image")?.complete && document.querySelector("#timeline-image").naturalWidth === 1200 && document.querySelector("#timeline-image").naturalHeight === 720`
	p.waitFor("the timeline chart", shown, 30*time.Second)
	p.checkA11y("timeline")
	p.shot("01-timeline")
	p.do("reload the case", chromedp.Reload())
	p.waitFor("the chart after a reload", shown, 20*time.Second)
}
