package devenv

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// OIDCProviderVersion is panva's oidc-provider that `make test` installs with npm into
// NPMDir.
const OIDCProviderVersion = "9.13.3"

// NPMDir is where `make test` installs the npm packages the tests run, under the module
// root.
const NPMDir = "data/npm"

//go:embed oidc-provider.mjs
var oidcProviderScript []byte

// OIDCProvider is a running OpenID Provider (oidc-provider on node, on loopback) that
// issues RS256 JWT access tokens by the client-credentials grant, and to the web app's
// public client (OIDCWebClient) by the authorization-code flow with PKCE.
type OIDCProvider struct {
	// Issuer is its issuer URL: http://127.0.0.1:<port>.
	Issuer string
	cmd    *exec.Cmd
	done   chan struct{}
}

// OIDCWebClient is the provider's public client for the web app, which it has when
// started with redirect URIs: the authorization-code grant with PKCE, no secret, and
// oidc-provider's development login and consent pages (any login name is accepted).
const OIDCWebClient = "lexflow-web"

// StartOIDCProvider starts a provider on port whose signing key has the ID kid and
// whose tokens carry claims besides the standard ones; with webRedirects it also has
// the OIDCWebClient, sending browsers back to those URIs. It returns once the provider
// listens, or fails when ctx ends first.
func StartOIDCProvider(ctx context.Context, port int, kid string, claims map[string]any, webRedirects ...string) (*OIDCProvider, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, NPMDir)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "oidc-provider")); err != nil {
		return nil, fmt.Errorf("oidc-provider is not installed in %s; `make test` installs it (npm install --prefix %s oidc-provider@%s)", dir, NPMDir, OIDCProviderVersion)
	}
	script := filepath.Join(dir, "lexflow-oidc-provider.mjs")
	if err := os.WriteFile(script, oidcProviderScript, 0o644); err != nil {
		return nil, err
	}
	rawClaims, err := json.Marshal(claims)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("node", script)
	redirects, err := json.Marshal(webRedirects)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(os.Environ(), "OIDC_PROVIDER_DIR="+dir, "PORT="+strconv.Itoa(port), "KID="+kid, "CLAIMS="+string(rawClaims),
		"WEB_REDIRECTS="+string(redirects))
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tail := &tailBuffer{}
	cmd.Stderr = tail
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start oidc-provider with node: %w", err)
	}
	p := &OIDCProvider{Issuer: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{})}
	ready := make(chan struct{})
	go func() {
		lines := bufio.NewScanner(out)
		for said := false; lines.Scan(); {
			if lines.Text() == "ready" && !said {
				close(ready)
				said = true
			}
		}
		_ = cmd.Wait()
		close(p.done)
	}()
	select {
	case <-ready:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("oidc-provider exited; its last output:\n%s", tail.String())
	case <-ctx.Done():
		p.Stop()
		return nil, fmt.Errorf("oidc-provider not ready: %w", ctx.Err())
	}
}

// Token asks the provider for an access token by the client-credentials grant.
func (p *OIDCProvider) Token(ctx context.Context) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {"api"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.Issuer+"/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.SetBasicAuth("lexflow-tests", "lexflow-tests-secret")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error_description"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.AccessToken == "" {
		return "", fmt.Errorf("token: %s %s %v", resp.Status, body.Error, err)
	}
	return body.AccessToken, nil
}

// Stop kills the provider and waits for it to exit.
func (p *OIDCProvider) Stop() {
	_ = p.cmd.Process.Kill()
	<-p.done
}
