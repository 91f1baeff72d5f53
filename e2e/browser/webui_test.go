package browser

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
)

// TestWebUIDecodesForSignedInSupport: the Temporal Web UI, served as `lexflow dev`
// serves it (the UI server sending the browser's cookies to the codec server), shows
// a case's input in plaintext to support staff signed in to the web app, through the
// codec session their support pages open; a client signed in to the web app, and the
// staff member once signed out, see it sealed.
func TestWebUIDecodesForSignedInSupport(t *testing.T) {
	uiPort, err := childproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	uiURL := fmt.Sprintf("http://127.0.0.1:%d", uiPort)
	appURL := serveAppWith(t, func(cfg *config.Config, _ *api.Deps) { cfg.TemporalUIURL = uiURL })
	server, err := devenv.FindTemporalUI("bin/temporal-ui")
	if err != nil {
		t.Fatal(err)
	}
	ui, err := devenv.StartTemporalUI(t.Context(), devenv.UIOptions{Server: server, Frontend: s.Temporal.Address, Port: uiPort,
		CodecEndpoint: appURL + "/codec", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ui.Stop)
	const canary = "Teodosia Canarescu-UI"
	id := s.CreateCase(t, s.Token(t, "webui-client"), "My landlord "+canary+" kept the deposit")
	workflowPage := ui.URL + "/namespaces/default/workflows/case:" + id
	// The input's metadata, as the Web UI shows a payload it could not decode.
	const sealed = `document.body.innerText.includes("YmluYXJ5L2VuY3J5cHRlZA==")` // base64 of binary/encrypted
	plaintext := fmt.Sprintf(`document.body.innerText.includes(%q)`, canary)

	staff := openPage(t, "en-US", 1280, 900)
	staff.signIn(appURL, "sam", "acme", "support")
	staff.do("open the queues", chromedp.Navigate(appURL+"/#/support"))
	staff.waitForCodecSession(appURL, true)
	staff.do("open the case in the Web UI", chromedp.Navigate(workflowPage))
	staff.waitFor("the case's input in plaintext", plaintext, 30*time.Second)
	staff.shot("webui-support")

	client := openPage(t, "en-US", 1280, 900)
	client.signIn(appURL, "webui-client", "acme")
	client.do("open the case in the Web UI", chromedp.Navigate(workflowPage))
	client.waitFor("the case's input sealed", sealed, 30*time.Second)
	if eval[bool](client, plaintext) {
		t.Error("a client's browser shows the case's input in plaintext")
	}

	staff.do("go back to the app", chromedp.Navigate(appURL+"/#/support"))
	staff.waitFor("the sign-out button", `document.querySelector("button.secondary") !== null`, 10*time.Second)
	staff.click("button.secondary")
	staff.waitForCodecSession(appURL, false)
	staff.do("open the case in the Web UI again", chromedp.Navigate(workflowPage))
	staff.waitFor("the case's input sealed", sealed, 30*time.Second)
	if eval[bool](staff, plaintext) {
		t.Error("the Web UI shows the case's input in plaintext after sign-out")
	}
}

// waitForCodecSession waits until the browser holds the codec cookie for the API at
// appURL (open) or no longer does (!open). The cookie is HttpOnly: the page cannot
// see it, the browser can.
func (p *page) waitForCodecSession(appURL string, open bool) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	for {
		res, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{appURL + "/codec/decode"}})
		has := false
		for _, c := range res.Cookies {
			has = has || c.Name == "lexflow_codec"
		}
		if err == nil && has == open {
			return
		}
		select {
		case <-ctx.Done():
			p.t.Fatalf("the codec session is not %s: %v", map[bool]string{true: "open", false: "closed"}[open], err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
