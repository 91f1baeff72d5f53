package browser

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/wiring"
)

// TestNotificationsStory is the notification pages' story, in Italian: a lawyer
// verifies an address with the code that came by mail, turns e-mail on with Italian
// and Rome's zone; a deadline reminder then comes by mail and into the list, where
// the header counts it unread until it is marked read.
func TestNotificationsStory(t *testing.T) {
	appURL := s.Serve(t, nil).APIURL
	p := openPage(t, "it-IT", 1280, 900)
	user := fmt.Sprintf("giulia%d", time.Now().UnixNano()%1e6)
	addr := user + "@example.com"
	p.signIn(appURL, user, "acme")

	p.do("open the settings", chromedp.Navigate(appURL+"/#/notifications/settings"))
	p.waitFor("the settings", `document.querySelector("#channel-app")?.checked === true && document.querySelector("#email") !== null`, 10*time.Second)
	if got := eval[bool](p, `document.querySelector("#channel-email").disabled`); !got {
		t.Error("the e-mail channel can be ticked before an address is verified")
	}
	p.fill("#email", addr)
	p.click("#email-form button[type=submit]")
	p.waitFor("the code form", `document.querySelector("#code-form") !== null`, 30*time.Second)
	code := regexp.MustCompile(`\b\d{6}\b`).FindString(s.Mail.WaitTo(t, addr, 1, 30*time.Second)[0].Subject)
	p.checkA11y("notification settings, code sent")
	p.shot("notify-01-code")
	p.fill("#code", code)
	p.click("#code-form button[type=submit]")
	p.waitFor("the verified address", fmt.Sprintf(`document.querySelector("#email-state")?.innerText === "Verificato: %s"`, addr), 10*time.Second)

	p.click("#channel-email")
	eval[bool](p, `(() => { const s = document.querySelector("#notify-language"); s.value = "it"; return true; })()`)
	p.fill("#time-zone", "Europe/Rome")
	p.click(`form[aria-labelledby=settings-title] button[type=submit]`)
	p.waitFor("the saved settings", `document.querySelector("#settings-status")?.innerText === "Salvato." && document.querySelector("#channel-email").checked`, 10*time.Second)
	p.checkA11y("notification settings")
	p.shot("notify-02-settings")

	mailer, err := wiring.Mailer(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	a := &activities.Notifications{Store: s.Store, Mail: mailer, DefaultLanguage: "en"}
	var ts testsuite.WorkflowTestSuite
	env := ts.NewTestActivityEnvironment()
	env.RegisterActivity(a)
	if _, err := env.ExecuteActivity(a.Notify, schemas.Notification{Key: "deadline:" + user + ":reminder:48h0m0s", Kind: schemas.NotifyDeadlineReminder,
		Owner: store.OwnerID("acme", user), CaseID: "c-" + user, Due: time.Now().Add(48 * time.Hour), Language: "ro",
		Params: map[string]string{"offset": "48h0m0s", "source": "court_order"}}); err != nil {
		t.Fatal(err)
	}
	if mail := s.Mail.WaitTo(t, addr, 2, 30*time.Second)[1]; mail.Subject != "Scadenza tra 2 giorni: pratica c-"+user {
		t.Errorf("reminder mail: %q", mail.Subject)
	}

	p.do("open the notifications", chromedp.Navigate(appURL+"/#/notifications"))
	p.waitFor("the reminder, unread", `document.querySelector(".notifications li.unread h2") !== null`, 10*time.Second)
	if got := p.text(".notifications li.unread h2"); got != "Scadenza tra 2 giorni: pratica c-"+user {
		t.Errorf("title = %q", got)
	}
	if got := p.text("#unread-count"); got != "1 da leggere" {
		t.Errorf("header badge = %q, want 1 unread", got)
	}
	if body := p.text(".notifications li .notice-body"); !strings.Contains(body, "provvedimento del giudice") || !strings.Contains(body, "(Europe/Rome)") {
		t.Errorf("body = %q", body)
	}
	p.checkA11y("notifications")
	p.shot("notify-03-list")
	p.click(".notifications li.unread button.mark-read")
	p.waitFor("the reminder read", `document.querySelector("#notifications-unread")?.innerText === "Tutte lette." && document.querySelector("#unread-count").hidden`, 10*time.Second)
}
