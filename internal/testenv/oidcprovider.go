package testenv

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/lexflow/lexflow/internal/childproc"
)

// OIDCProviderVersion is panva's oidc-provider that `make test` installs with npm into
// childproc.NPMDir.
const OIDCProviderVersion = "9.13.3"

//go:embed oidc-provider.mjs
var oidcProviderScript []byte

// OIDCProvider is a running OpenID Provider (oidc-provider on node, on loopback) that
// issues RS256 JWT access tokens by the client-credentials grant, and to the web app's
// public client (OIDCWebClient) by the authorization-code flow with PKCE.
type OIDCProvider struct {
	// Issuer is its issuer URL: http://127.0.0.1:<port>.
	Issuer string
	p      *childproc.Process
}

// OIDCWebClient is the provider's public client for the web app, which it has when
// started with redirect URIs: the authorization-code grant with PKCE, no secret, and
// oidc-provider's development login and consent pages (any login name is accepted).
const OIDCWebClient = "lexflow-web"

// OIDCServiceClient is a client of the provider's client-credentials grant whose
// tokens carry Claims besides the standard ones.
type OIDCServiceClient struct {
	ID     string         `json:"client_id"`
	Secret string         `json:"client_secret"`
	Claims map[string]any `json:"claims"`
}

// OIDCTemporalResource is the resource indicator for which the provider issues
// tokens with the audience OIDCTemporalAudience, the Temporal server's.
const (
	OIDCTemporalResource = "urn:lexflow:temporal"
	OIDCTemporalAudience = "temporal"
)

// StartOIDCProvider starts a provider on port whose signing key has the ID kid and
// whose tokens carry claims besides the standard ones; with webRedirects it also has
// the OIDCWebClient, sending browsers back to those URIs. It returns once the provider
// listens, or fails when ctx ends first.
func StartOIDCProvider(ctx context.Context, port int, kid string, claims map[string]any, webRedirects ...string) (*OIDCProvider, error) {
	return StartOIDCProviderWith(ctx, port, kid, claims, nil, webRedirects...)
}

// StartOIDCProviderWith is StartOIDCProvider with service clients besides the tests'
// own (lexflow-tests), each with the claims of its own tokens.
func StartOIDCProviderWith(ctx context.Context, port int, kid string, claims map[string]any, services []OIDCServiceClient, webRedirects ...string) (*OIDCProvider, error) {
	rawClaims, err := json.Marshal(claims)
	if err != nil {
		return nil, err
	}
	redirects, err := json.Marshal(webRedirects)
	if err != nil {
		return nil, err
	}
	rawServices, err := json.Marshal(services)
	if err != nil {
		return nil, err
	}
	p, err := childproc.StartNode(ctx, "oidc-provider", oidcProviderScript, "oidc-provider",
		fmt.Sprintf("`make test` installs it (npm install --prefix %s oidc-provider@%s)", childproc.NPMDir, OIDCProviderVersion),
		"PORT="+strconv.Itoa(port), "KID="+kid, "CLAIMS="+string(rawClaims), "WEB_REDIRECTS="+string(redirects),
		"SERVICE_CLIENTS="+string(rawServices))
	if err != nil {
		return nil, err
	}
	return &OIDCProvider{Issuer: fmt.Sprintf("http://127.0.0.1:%d", port), p: p}, nil
}

// TokenURL is the provider's token endpoint.
func (p *OIDCProvider) TokenURL() string { return p.Issuer + "/token" }

// JWKS is the URL of the provider's key set.
func (p *OIDCProvider) JWKS() string { return p.Issuer + "/jwks" }

// Token asks the provider for an access token by the client-credentials grant.
func (p *OIDCProvider) Token(ctx context.Context) (string, error) {
	return p.ClientToken(ctx, "lexflow-tests", "lexflow-tests-secret", url.Values{"scope": {"api"}})
}

// ClientToken asks the provider for an access token by the client-credentials grant
// as client id with secret, with the form's parameters (scope, resource).
func (p *OIDCProvider) ClientToken(ctx context.Context, id, secret string, params url.Values) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	for k, v := range params {
		form[k] = v
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.TokenURL(), strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.SetBasicAuth(id, secret)
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
func (p *OIDCProvider) Stop() { p.p.Kill() }
