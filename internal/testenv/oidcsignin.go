package testenv

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// WebTokens are what the web app's client gets from a sign-in: the ID token, for the
// app itself, and the access token, for the API.
type WebTokens struct {
	IDToken     string `json:"id_token"`
	AccessToken string `json:"access_token"`
}

// formAction finds the action of a development login or consent page's form, and
// hiddenInput its hidden fields (the prompt it answers).
var (
	formAction  = regexp.MustCompile(`<form[^>]*action="([^"]+)"`)
	hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`)
)

// SignIn signs login in as the OIDCWebClient would from a browser, without one: the
// authorization-code flow with PKCE, through the development login and consent pages,
// back to redirect (one of the provider's web redirect URIs, never contacted), asking
// for audience's access token; it returns the tokens the code is exchanged for.
func (p *OIDCProvider) SignIn(ctx context.Context, redirect, login, audience string) (WebTokens, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return WebTokens{}, err
	}
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	verifier := base64.RawURLEncoding.EncodeToString(raw)
	challenge := sha256.Sum256([]byte(verifier))
	auth := p.Issuer + "/auth?" + url.Values{"client_id": {OIDCWebClient}, "response_type": {"code"}, "redirect_uri": {redirect},
		"scope": {"openid"}, "state": {"s"}, "audience": {audience},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(challenge[:])}, "code_challenge_method": {"S256"}}.Encode()
	next, form := auth, url.Values(nil)
	for range 12 {
		method, body := http.MethodGet, io.Reader(nil)
		if form != nil {
			method, body = http.MethodPost, strings.NewReader(form.Encode())
		}
		req, err := http.NewRequestWithContext(ctx, method, next, body)
		if err != nil {
			return WebTokens{}, err
		}
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("Accept", "text/html")
		resp, err := c.Do(req)
		if err != nil {
			return WebTokens{}, err
		}
		page, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		form = nil
		switch loc := resp.Header.Get("Location"); {
		case strings.HasPrefix(loc, redirect):
			u, err := url.Parse(loc)
			if err != nil || u.Query().Get("code") == "" {
				return WebTokens{}, fmt.Errorf("sign-in came back without a code: %s", loc)
			}
			return p.exchange(ctx, c, u.Query().Get("code"), redirect, verifier)
		case loc != "":
			next = resolve(p.Issuer, loc)
		default:
			m := formAction.FindSubmatch(page)
			if m == nil {
				return WebTokens{}, fmt.Errorf("sign-in page %s (%s) has no form", next, resp.Status)
			}
			next, form = resolve(p.Issuer, string(m[1])), url.Values{"login": {login}, "password": {"any"}}
			for _, h := range hiddenInput.FindAllSubmatch(page, -1) {
				form.Set(string(h[1]), string(h[2]))
			}
		}
	}
	return WebTokens{}, errors.New("sign-in did not come back within 12 steps")
}

// exchange trades an authorization code for the client's tokens.
func (p *OIDCProvider) exchange(ctx context.Context, c *http.Client, code, redirect, verifier string) (WebTokens, error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect},
		"client_id": {OIDCWebClient}, "code_verifier": {verifier}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.Issuer+"/token", strings.NewReader(form.Encode()))
	if err != nil {
		return WebTokens{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		return WebTokens{}, err
	}
	defer resp.Body.Close()
	var t WebTokens
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil || t.IDToken == "" {
		return t, fmt.Errorf("token exchange: %s %v", resp.Status, err)
	}
	return t, nil
}

// resolve makes a provider's relative location absolute.
func resolve(issuer, loc string) string {
	if strings.HasPrefix(loc, "/") {
		return issuer + loc
	}
	return loc
}
