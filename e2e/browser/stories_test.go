package browser

import (
	"context"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/testenv"
)

// allStories skips a story that only `make browser-test` runs.
func allStories(t *testing.T) {
	if os.Getenv("LEXFLOW_BROWSER_STORIES") != "all" {
		t.Skip("runs in `make browser-test` (LEXFLOW_BROWSER_STORIES=all)")
	}
}

// signIn signs a tab in through the dev form.
func (p *page) signIn(url, sub, org string, roles ...string) {
	p.t.Helper()
	p.do("open the app", chromedp.Navigate(url+"/"))
	p.waitFor("the sign-in form", `document.querySelector("#dev-sub") !== null`, 10*time.Second)
	p.fill("#dev-sub", sub)
	p.fill("#dev-org", org)
	for _, role := range roles {
		p.click(`input[name=roles][value="` + role + `"]`)
	}
	p.click(`form button[type=submit]`)
	p.waitFor("the signed-in header", `document.querySelector("button.secondary") !== null && document.querySelector(".who") !== null`, 10*time.Second)
}

// openCase opens a case from the case list and waits until it is active.
func (p *page) openCase(description string) {
	p.t.Helper()
	p.waitFor("the case form", `document.querySelector("#case-description") !== null`, 10*time.Second)
	p.fill("#case-description", description)
	p.click(`form[aria-labelledby=new-case-title] button[type=submit]`)
	p.waitFor("the active case", `document.querySelector(".steps li.current")?.innerText.includes("Work") && !document.querySelector("#message").disabled`, time.Minute)
}

// send types a message and sends it with the send button, once the button is enabled,
// and waits until the page has taken it: the page empties the field as it sends. A
// click the page did not take is made again, as a client would: the click lands where
// the button was, and a notice that appeared meanwhile (the payment's, back from the
// checkout) can move it.
func (p *page) send(message string) {
	p.t.Helper()
	// The button waits while the case is busy: clicked then, it sends nothing.
	p.waitFor("the send button", `!document.querySelector(".composer button[type=submit]").disabled`, time.Minute)
	p.fill("#message", message)
	const taken = `document.querySelector("#message").value === ""`
	for range sendClicks - 1 {
		p.click(".composer button[type=submit]")
		if p.poll(taken, 5*time.Second) == nil {
			return
		}
	}
	p.click(".composer button[type=submit]")
	p.waitFor("the message sent", taken, 30*time.Second)
}

// sendClicks is how many times send clicks the send button before it fails.
const sendClicks = 3

// TestSupportStory: a step the case depends on (a party named before it is on file)
// climbs the ladder in the client's page, the case shows as paused in support's queue,
// staff read its ticket, escalations and transcript, the client adds the party, staff
// resume the case with a retry, and the client's page updates by itself with the
// retried answer.
func TestSupportStory(t *testing.T) {
	allStories(t)
	appURL := serveApp(t)
	client := openPage(t, "en-US", 1280, 900)
	client.signIn(appURL, "ana", "acme")
	client.openCase("My employer dismissed me without notice and I want compensation")

	client.send("party: {{party0.fullName}}")
	client.waitFor("the question to the client", `document.querySelector(".next")?.innerText.includes("needs your answer")`, time.Minute)
	client.send("Yes, please try again.")
	client.waitFor("the paused case", `document.querySelector(".next")?.innerText.includes("support ticket is open") && document.querySelector("#message").disabled`, time.Minute)
	if esc := client.text(".transcript"); !strings.Contains(esc, "reasoning model") || !strings.Contains(esc, "Support ticket") {
		t.Errorf("the client's chat does not show the ladder's rungs:\n%s", esc)
	}
	client.shot("01-client-paused")

	staff := openPage(t, "en-US", 1280, 900)
	staff.signIn(appURL, "sam", "acme", "support")
	staff.do("open the queues", chromedp.Navigate(appURL+"/#/support"))
	staff.waitFor("the paused case in the queue", `document.querySelector("table tbody a") !== null`, 20*time.Second)
	if waited := staff.text("table tbody td:last-child"); waited == "" {
		t.Error("the queue does not say how long the case has waited")
	}
	staff.checkA11y("support queue")
	staff.shot("02-support-queue")
	staff.click("table tbody a")
	staff.waitFor("the ticket", `document.querySelector(".tickets")?.innerText.includes("open")`, 20*time.Second)
	staff.waitFor("three escalations", `document.querySelectorAll(".ladder li").length === 3`, 20*time.Second)
	staff.waitFor("the failed tool in the transcript", `document.querySelector(".records")?.innerText.includes("get_party_id_by_name")`, 20*time.Second)
	// What staff used the Temporal Web UI for: where the case stands and its events.
	staff.waitFor("the case's state", `document.querySelector(".state")?.innerText.includes("support")`, 20*time.Second)
	if st := staff.text(".state"); !strings.Contains(st, "get_party_id_by_name") {
		t.Errorf("the state lacks the escalation:\n%s", st)
	}
	staff.waitFor("the event timeline", `document.querySelectorAll(".timeline li").length >= 3`, 20*time.Second)
	staff.checkA11y("support case")
	staff.shot("03-support-case")

	client.click("section[aria-labelledby=parties-title] summary")
	client.fill("#party-first_name", "Ana")
	client.fill("#party-last_name", "Moldovan")
	client.click("#party-form button[type=submit]")
	client.waitFor("the party", `document.querySelector(".parties")?.innerText.includes("party0")`, 10*time.Second)
	staff.fill("#resume-note", "The party is on file now")
	staff.click(`form[aria-labelledby=resume-title] button[type=submit]`)
	staff.waitFor("the resumed case", `document.querySelector("[role=status]")?.innerText.includes("open")`, time.Minute)

	// The client's page follows the case by itself.
	client.waitFor("the client's page resumed", `!document.querySelector("#message").disabled && !document.querySelector(".next").innerText.includes("support ticket")`, time.Minute)
	client.waitFor("the retried answer", `[...document.querySelectorAll("article.turn .tool.ok")].some(n => n.innerText.includes("get_party_id_by_name"))`, time.Minute)
	client.shot("04-client-resumed")

	// A second resume is refused: the API's problem reads as a sentence. The retried
	// turn's records may still arrive and move the form on a narrow page, so the
	// button is pressed where it is rather than at coordinates taken a moment before.
	staff.fill("#resume-note", "once more")
	eval[bool](staff, `(document.querySelector("form[aria-labelledby=resume-title] button[type=submit]").click(), true)`)
	staff.waitFor("the refusal", `document.getElementById("alert").innerText.includes("only paused or waiting cases are resumed")`, 20*time.Second)
	if alert := staff.text("#alert"); strings.Contains(alert, "{") {
		t.Errorf("the refusal shows raw JSON: %q", alert)
	}
}

// cutProxy forwards TCP connections to an address until Cut closes every open one;
// later connections go through again.
type cutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startProxy(t *testing.T, to string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", to)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
	t.Cleanup(func() { ln.Close(); p.Cut() })
	return p
}

// Cut closes every connection open through the proxy.
func (p *cutProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestReconnectMidAnswer cuts the page's connections while the answer streams in: the
// page says it is reconnecting, reads the rest of the case's events from where it
// was, and the answer completes, once. Then Stop cancels the next answer.
func TestReconnectMidAnswer(t *testing.T) {
	allStories(t)
	appURL := serveApp(t, "LEXFLOW_OFFLINE_CHUNK_DELAY=100ms")
	proxy := startProxy(t, strings.TrimPrefix(appURL, "http://"))
	url := "http://" + proxy.ln.Addr().String()
	p := openPage(t, "it-IT", 1280, 900)
	p.signIn(url, "lia", "acme")
	p.waitFor("the case form", `document.querySelector("#case-description") !== null`, 10*time.Second)
	p.fill("#case-description", "Il mio datore di lavoro mi ha licenziato senza preavviso")
	p.click(`form[aria-labelledby=new-case-title] button[type=submit]`)
	p.waitFor("the active case", `document.querySelector(".steps li.current")?.innerText.includes("Lavoro") && !document.querySelector("#message").disabled`, time.Minute)
	eval[bool](p, `(() => {
		window.said = new Set();
		new MutationObserver(() => window.said.add(document.querySelector(".conn").innerText))
			.observe(document.querySelector(".conn"), {childList: true, characterData: true, subtree: true});
		return true;
	})()`)

	p.send("art. 2043 c.c.")
	p.waitFor("the answer streaming", `[...document.querySelectorAll("article.turn p.step:not(.interim)")].some(s => s.textContent.length > 0)`, time.Minute)
	proxy.Cut()
	p.waitFor("the completed answer", turnDone(1), time.Minute)
	if !eval[bool](p, `window.said.has("Connessione persa: riconnessione…")`) {
		t.Error("the page never said it was reconnecting")
	}
	// Once the page has its answer to the message sent again, the case has one turn.
	p.waitFor("the message's request settled", `!document.querySelector(".composer").hasAttribute("data-sending")`, time.Minute)
	caseID := strings.TrimPrefix(eval[string](p, "location.hash"), "#/cases/")
	recs := s.Call(t, "GET", "/v1/cases/"+caseID+"/messages", s.Mint(t, auth.Identity{Subject: "lia", Org: "acme", Roles: []string{"user"}}), nil)
	users := 0
	for _, r := range recs.Body["messages"].([]any) {
		if r.(map[string]any)["role"] == "user" {
			users++
		}
	}
	if n := eval[int](p, `document.querySelectorAll("article.turn").length`); n != 1 || users != 1 {
		t.Errorf("after the reconnect: %d turns on the page, %d user messages stored; want the one", n, users)
	}
	if reply := p.text("article.turn p.reply"); !strings.Contains(reply, "2043") || !strings.Contains(reply, "Fonti:") {
		t.Errorf("reply after the reconnect = %q", reply)
	}
	p.shot("reconnected")

	// Stop: the running answer is cancelled and says so.
	p.send("art. 2043 c.c.")
	p.waitFor("the second answer streaming", `document.querySelectorAll("article.turn").length === 2 && !document.querySelector(".composer button.danger").hidden`, time.Minute)
	p.click(".composer button.danger")
	p.waitFor("the stopped answer", `document.querySelectorAll("article.turn")[1].querySelector(".turn-state").innerText === "Fermato."`, time.Minute)
	if !eval[bool](p, `document.querySelector(".composer button.danger").hidden`) {
		t.Error("the Stop button stays after the turn stopped")
	}
}

// TestOIDCSignIn signs in through a real OpenID Provider (oidc-provider, its
// development login and consent pages) by the authorization-code flow with PKCE, and
// uses the access token the page got to open a case.
func TestOIDCSignIn(t *testing.T) {
	allStories(t)
	appURL := serveAppWith(t, func(cfg *config.Config, d *api.Deps) {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		port, err := childproc.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		prov, err := testenv.StartOIDCProvider(ctx, port, "web-key", map[string]any{"org": "acme", "roles": []string{"user"}}, cfg.PublicURL+"/")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(prov.Stop)
		v, err := auth.NewOIDC(ctx, auth.OIDCOptions{Issuer: prov.Issuer, Audience: "lexflow", RolesClaim: "roles", OrgClaim: "org", Leeway: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		d.Auth.OIDC = v
		cfg.OIDCIssuer, cfg.OIDCClientID, cfg.OIDCAudience, cfg.OIDCScope = prov.Issuer, testenv.OIDCWebClient, "lexflow", "openid api"
		cfg.OIDCRolesClaim, cfg.OIDCOrgClaim = "roles", "org"
	})
	p := openPage(t, "en-US", 1280, 900)
	p.do("open the app", chromedp.Navigate(appURL+"/"))
	p.waitFor("the provider's button", `[...document.querySelectorAll("button.primary")].some(b => b.innerText.startsWith("Sign in with"))`, 10*time.Second)
	p.click("section.card > button.primary")
	p.waitFor("the provider's login page", `document.querySelector("input[name=login]") !== null`, 20*time.Second)
	p.fill("input[name=login]", "olga")
	p.fill("input[name=password]", "any")
	p.click("button[type=submit]")
	p.waitFor("the provider's consent page", `document.querySelector("button[type=submit]")?.innerText.includes("Continue") || location.port === new URL(`+strconv.Quote(appURL)+`).port`, 20*time.Second)
	if !strings.HasPrefix(eval[string](p, "location.href"), appURL) {
		p.click("button[type=submit]")
	}
	p.waitFor("the signed-in header", `document.querySelector(".who")?.innerText === "olga · acme"`, 20*time.Second)
	if u := eval[string](p, "location.href"); strings.Contains(u, "code=") {
		t.Errorf("the code stays in the address bar: %s", u)
	}
	p.openCase("My landlord kept my deposit")
}
