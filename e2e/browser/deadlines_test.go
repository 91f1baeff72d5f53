package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestDeadlinesInTheBrowser: a client computes an Italian deadline on the calculator
// (the August suspension skipped), adds a Romanian one to a case from a computation,
// finds it in "my deadlines" beside one the assistant proposed, confirms the proposed
// one in the case and marks it done, and makes, rotates and turns off a calendar feed.
func TestDeadlinesInTheBrowser(t *testing.T) {
	appURL := serveApp(t)
	p := openPage(t, "en-US", 1280, 900)
	const org = "acme"
	user := fmt.Sprintf("dl-browser-%d", time.Now().UnixNano()%1e6)
	p.signIn(appURL, user, org)

	p.do("open the calculator", chromedp.Navigate(appURL+"/#/deadlines/calculator"))
	p.waitFor("the calculator", `document.querySelector("#calc-form") !== null`, 10*time.Second)
	p.choose("#calc-jurisdiction", "it")
	p.fill("#calc-from", "2023-07-20")
	p.fill("#calc-amount", "60")
	if !eval[bool](p, `document.querySelector("#calc-suspension").checked && !document.querySelector("#calc-suspension").closest("[hidden]")`) {
		t.Error("the August suspension is not offered, ticked, for Italy's code of civil procedure")
	}
	p.click("#calc-form button[type=submit]")
	p.waitFor("the computed deadline", `document.querySelector("#calc-result")?.innerText.includes("2023-10-19")`, 10*time.Second)
	if got := p.text("#calc-result"); !strings.Contains(got, "L. 742/1969") || !strings.Contains(got, "2023-08-01") {
		t.Errorf("the calculator shows %q, want the suspension's article and the August days it skipped", got)
	}
	p.checkA11y("deadline calculator")
	p.shot("deadlines-01-calculator")

	p.do("open the case list", chromedp.Navigate(appURL+"/#/"))
	p.openCase("Am primit o hotărâre și vreau să fac apel")
	caseID := eval[string](p, `decodeURIComponent(location.hash.split("/")[2])`)
	p.click("section[aria-labelledby=deadlines-title] summary")
	p.fill("#dl-title", "Apel")
	p.choose("#dl-source", schemas.SourceCourtOrder)
	p.fill("#dl-new-from", "2030-03-04")
	p.fill("#dl-new-amount", "30")
	p.click("#deadline-form button[type=submit]")
	p.waitFor("the added deadline", `document.querySelector("#case-deadlines li.active")?.innerText.includes("2030-04-04")`, 10*time.Second)
	p.click("#case-deadlines li.active summary")
	if got := p.text("#case-deadlines li.active"); !strings.Contains(got, "art. 181") {
		t.Errorf("the case's deadline shows %q, want its rules with their articles", got)
	}

	// The assistant proposes a deadline, as propose_deadline stores one.
	did := uuid.NewString()
	owner := store.OwnerID(org, user)
	if _, err := s.Store.CreateDeadline(context.Background(), store.Deadline{ID: did, CaseID: caseID, TenantID: org, Owner: owner,
		Title: "Întâmpinare", Source: schemas.DeadlineSource{Kind: schemas.SourceCommunication}, Due: "2030-05-02",
		Zone: "Europe/Bucharest", EndsAt: time.Date(2030, 5, 2, 21, 0, 0, 0, time.UTC), Responsible: owner,
		Reminders: schemas.DefaultReminders, Status: schemas.DeadlineProposed, ProposedBy: schemas.ProposedByAssistant}); err != nil {
		t.Fatal(err)
	}

	p.do("open my deadlines", chromedp.Navigate(appURL+"/#/deadlines"))
	p.waitFor("both deadlines", `document.querySelectorAll("#my-deadlines li.deadline").length === 2`, 10*time.Second)
	if got := eval[[]string](p, `[...document.querySelectorAll("#my-deadlines li.deadline time")].map((e) => e.textContent)`); strings.Join(got, " ") != "2030-04-04 2030-05-02" {
		t.Errorf("my deadlines are on %v, want 2030-04-04 then 2030-05-02", got)
	}
	if !eval[bool](p, fmt.Sprintf(`document.querySelector("#my-deadlines li[data-id='%s'] a")?.getAttribute("href") === %q`, did, "#/cases/"+caseID)) {
		t.Error("the proposed deadline in my deadlines does not link to its case")
	}
	p.checkA11y("my deadlines")
	p.shot("deadlines-02-mine")

	p.do("open the case", chromedp.Navigate(appURL+"/#/cases/"+caseID))
	proposed := fmt.Sprintf("#case-deadlines li[data-id=%q]", did)
	p.waitFor("the proposed deadline", `document.querySelector(`+fmt.Sprintf("%q", proposed)+`)?.innerText.includes("proposed by Lexflow")`, 10*time.Second)
	p.click(proposed + " button.confirm")
	p.waitFor("the confirmed deadline", `document.querySelector(`+fmt.Sprintf("%q", proposed)+`)?.classList.contains("active")`, 10*time.Second)
	p.checkA11y("case deadlines")
	p.click(proposed + " button.done")
	p.waitFor("the deadline done", `document.querySelector(`+fmt.Sprintf("%q", proposed)+`)?.classList.contains("done")`, 10*time.Second)
	if d, err := s.Store.GetDeadline(context.Background(), caseID, did); err != nil || d.Status != schemas.DeadlineDone || d.ConfirmedBy != owner {
		t.Errorf("the deadline is stored as %+v, %v; want done, confirmed by %s", d, err, owner)
	}
	p.shot("deadlines-03-case")

	p.do("open the settings", chromedp.Navigate(appURL+"/#/notifications/settings"))
	p.click("#feed-make")
	p.waitFor("the feed's URL", `document.querySelector("#feed-url")?.value.includes("/v1/feeds/")`, 10*time.Second)
	first := eval[string](p, `document.querySelector("#feed-url").value`)
	p.click("#feed-make")
	p.waitFor("a new feed URL", fmt.Sprintf(`document.querySelector("#feed-url")?.value.includes("/v1/feeds/") && document.querySelector("#feed-url").value !== %q`, first), 10*time.Second)
	p.checkA11y("calendar feed")
	p.click("#feed-off")
	p.waitFor("the feed off", `document.querySelector("#feed-url") === null && document.querySelector("#feed-status").innerText !== ""`, 10*time.Second)
}

// choose picks value in a select, as a user would, firing its change event.
func (p *page) choose(selector, value string) {
	p.t.Helper()
	p.do("choose in "+selector, chromedp.WaitVisible(chromedp.CSS(selector)), chromedp.SetValue(chromedp.CSS(selector), value))
	eval[bool](p, fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new Event("change", {bubbles: true}))`, selector))
}
