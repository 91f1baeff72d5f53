package api_test

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// followScript runs the web app's follow (web/static/js/api.js) under node against a
// case's event stream, opened with a short-lived token: it passes when the stream,
// ended by the API's reconnect event once the token expired, is opened again at once
// with the fresh token that whenTokenExpires gives.
const followScript = `
globalThis.sessionStorage = {
  m: new Map(),
  getItem(k) { return this.m.has(k) ? this.m.get(k) : null; },
  setItem(k, v) { this.m.set(k, String(v)); },
  removeItem(k) { this.m.delete(k); },
};
const [apiFile, url, short, fresh] = process.argv.slice(2);
const api = await import(apiFile);
api.setToken(short);
let renewed = 0, live = 0;
api.whenTokenExpires(async () => { renewed++; api.setToken(fresh); return true; });
const ctl = new AbortController();
setTimeout(() => { console.error("the stream was not opened again within 30 s"); process.exit(1); }, 30000);
await api.follow(url, {
  onEvent: () => {},
  onState: (s) => { if (s === "live" && ++live === 2) ctl.abort(); },
  onError: (e) => { console.error("refused:", e.status, e.message); process.exit(1); },
  signal: ctl.signal,
});
if (renewed !== 1) { console.error("renewed", renewed, "times"); process.exit(1); }
process.exit(0);
`

// TestWebAppReconnectsWithAFreshToken: the web app's event stream, once its token
// expires, is opened again with a fresh one rather than refused (issue 36, finding 5).
func TestWebAppReconnectsWithAFreshToken(t *testing.T) {
	t.Parallel()
	id := s.CreateCase(t, s.Token(t, "web-renew"), "A case the web app watches")
	short, err := s.Signer.Mint(auth.Identity{Subject: "web-renew", Org: "acme", Roles: []string{schemas.RoleUser}}, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	apiJS, err := filepath.Abs(filepath.Join("..", "..", "web", "static", "js", "api.js"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "follow.mjs")
	if err := os.WriteFile(script, []byte(followScript), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", script, (&url.URL{Scheme: "file", Path: apiJS}).String(),
		s.APIURL+"/v1/cases/"+id+"/events", short, s.Token(t, "web-renew")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
}
