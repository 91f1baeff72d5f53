package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
)

// serveApp serves the web app for one test, returning its URL: an API of its own on
// loopback, starting cases on a queue served by a helper worker process (with env
// added) whose offline model streams its answer as `lexflow dev`'s does.
func serveApp(t *testing.T, env ...string) string {
	t.Helper()
	return serveAppWith(t, nil, env...)
}

// serveAppWith is serveApp with configure changing the API's configuration and
// dependencies before it is built; cfg.PublicURL is where it will serve.
func serveAppWith(t *testing.T, configure func(cfg *config.Config, d *api.Deps), env ...string) string {
	t.Helper()
	queue := fmt.Sprintf("browser-%d", time.Now().UnixNano())
	s.StartHelperWorker(t, queue, 0, append([]string{"LEXFLOW_OFFLINE_CHUNK_DELAY=20ms"}, env...)...)
	s.LogQueueOnFailure(t, queue)
	app := s.Serve(t, func(cfg *config.Config, d *api.Deps) {
		cfg.TaskQueue = queue
		if configure != nil {
			configure(cfg, d)
		}
	})
	return app.APIURL
}

// page is a browser tab of a fresh headless Chromium.
type page struct {
	t   *testing.T
	ctx context.Context
	// downloads is where the browser saves files.
	downloads string
	mu        sync.Mutex
	errs      []string
}

// openPage starts Chromium (Debian's `chromium`, which `make test` installs) with a
// fresh profile, the browser language lang and a window of width×height, and fails the
// test at its end if the page threw an uncaught exception.
func openPage(t *testing.T, lang string, width, height int) *page {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("no chromium on PATH: `make test` installs Debian's chromium package (apt-get install chromium)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(width, height),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("lang", lang), chromedp.Flag("accept-lang", lang),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	p := &page{t: t, ctx: ctx, downloads: t.TempDir()}
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errs {
			t.Errorf("the page threw: %s", e)
		}
	})
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			p.mu.Lock()
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			p.errs = append(p.errs, fmt.Sprintf("%s at %s:%d", msg, d.URL, d.LineNumber+1))
			p.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	yes := true
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: p.downloads, EventsEnabled: &yes}); err != nil {
		t.Fatal(err)
	}
	return p
}

// actionTimeout bounds one step of the page: a click on an element that never comes.
const actionTimeout = 30 * time.Second

// do runs browser actions, failing the test with what was being done.
func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor waits, at most within, until the JavaScript predicate holds, checking again
// at every change of the page; what says what was awaited.
func (p *page) waitFor(what, predicate string, within time.Duration) {
	p.t.Helper()
	if err := p.poll(predicate, within); err != nil {
		alert, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById("alert")?.innerText || ""`))
		state, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](pageState))
		p.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
		p.t.Fatalf("waiting for %s: %v (alert: %q; page: %s)", what, err, alert, state)
	}
}

// poll waits, at most within, until the JavaScript predicate holds, checking again at
// every change of the page, and returns the error of a wait that ended without it.
func (p *page) poll(predicate string, within time.Duration) error {
	deadline := time.Now().Add(within)
	var err error
	for {
		left := time.Until(deadline)
		if left < time.Millisecond {
			break // chromedp reads a timeout of 0 as none
		}
		_, err = chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](predicate,
			chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(left)))
		// A navigation (to the checkout and back) ends the poll with an error about
		// the page it ran in: poll the new page, until the deadline.
		if err == nil || time.Now().After(deadline) || !navigated(err) {
			break
		}
	}
	return err
}

// pageState says where the page stood, for a failed wait: its address, its case's
// steps and what-next, the composer (its text, whether it can send and why not) and
// the turns shown with their states.
const pageState = `JSON.stringify({
  hash: location.hash,
  step: document.querySelector(".steps li.current")?.innerText,
  next: document.querySelector(".next")?.innerText,
  conn: document.querySelector(".conn")?.innerText,
  message: document.querySelector("#message")?.value,
  messageDisabled: document.querySelector("#message")?.disabled,
  sendDisabled: document.querySelector(".composer button[type=submit]")?.disabled,
  sending: document.querySelector(".composer")?.hasAttribute("data-sending"),
  why: document.querySelector("#composer-why")?.innerText,
  turns: [...document.querySelectorAll("article.turn")].map((a) => a.querySelector(".turn-state")?.innerText + " | " + (a.querySelector(".answer")?.innerText || "").slice(0, 80)),
})`

// navigated reports whether a poll failed because the page it ran in went away.
func navigated(err error) bool {
	for _, s := range []string{"navigated or closed", "Cannot find context", "Execution context was destroyed"} {
		if strings.Contains(err.Error(), s) {
			return true
		}
	}
	return false
}

// text is the visible text of the first element matching a CSS selector, "" if none.
func (p *page) text(selector string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`document.querySelector(%q)?.innerText || ""`, selector))
}

// fill sets a form field's value as typing would, firing its input event.
func (p *page) fill(selector, value string) {
	p.t.Helper()
	// :read-write waits until the field takes input: a page may hold it read-only while
	// it loads what the field shows.
	p.do("fill "+selector, chromedp.WaitVisible(chromedp.CSS(selector+":read-write")), chromedp.SetValue(chromedp.CSS(selector), value))
	eval[bool](p, fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new Event("input", {bubbles: true}))`, selector))
}

func (p *page) click(selector string) {
	p.t.Helper()
	p.do("click "+selector, chromedp.WaitVisible(chromedp.CSS(selector)), chromedp.Click(chromedp.CSS(selector)))
}

// shot saves a screenshot of the whole page as name.png in the test's artifact
// directory (under -outputdir with -artifacts; `make browser-test` keeps them).
func (p *page) shot(name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(p.t.ArtifactDir(), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// axePath is axe-core, which `make test` installs with npm.
var axePath = filepath.Join("..", "..", "data", "npm", "node_modules", "axe-core", "axe.min.js")

// checkA11y runs axe-core on the page and fails on serious or critical violations.
func (p *page) checkA11y(screen string) {
	p.t.Helper()
	src, err := os.ReadFile(axePath)
	if err != nil {
		p.t.Fatalf("axe-core is not installed (%v): `make test` installs it with npm", err)
	}
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[chromedp.Void](string(src))); err != nil {
		p.t.Fatalf("load axe-core: %v", err)
	}
	found := eval[[]string](p, `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => v.id + " (" + v.impact + "): " + v.help + " at " + v.nodes.map(n => n.target.join(" ")).join(", ")))`)
	for _, v := range found {
		p.t.Errorf("accessibility of the %s screen: %s", screen, v)
	}
}

// download waits for the browser to finish a download that the action starts, and
// returns the file's contents.
func (p *page) download(what string, start func()) []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	events := chromedp.BrowserEvents(ctx, browser.DownloadProgress)
	start()
	for ev, err := range events {
		if err != nil {
			p.t.Fatalf("download %s: %v", what, err)
		}
		switch ev.State {
		case browser.DownloadProgressStateCompleted:
			body, err := os.ReadFile(filepath.Join(p.downloads, ev.GUID))
			if err != nil {
				p.t.Fatal(err)
			}
			return body
		case browser.DownloadProgressStateCanceled:
			p.t.Fatalf("download %s was cancelled", what)
		}
	}
	p.t.Fatalf("download %s: %v", what, errors.Join(ctx.Err(), errors.New("no completed download")))
	return nil
}
