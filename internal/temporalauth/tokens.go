package temporalauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/lexflow/lexflow/config"
)

// Renewal bounds: a token is renewed when a quarter of its lifetime, at most
// renewBefore, is left; one whose lifetime the endpoint does not say is renewed after
// unknownLifetime.
const (
	renewBefore     = time.Minute
	unknownLifetime = 5 * time.Minute
	// fetchTimeout bounds one request to the token endpoint.
	fetchTimeout = 10 * time.Second
	// retryAfter spaces the requests for a token after one failed: the calls between
	// get the held token, or the failure, at once.
	retryAfter = 5 * time.Second
)

// Tokens hands out the process's access token for Temporal, getting a new one from
// the token endpoint by the client-credentials grant before the one it holds expires.
// A failed renewal leaves the held token in use until it expires, and the endpoint is
// asked again after retryAfter, not at every call.
type Tokens struct {
	cc   clientcredentials.Config
	http *http.Client
	// now is the clock; tests set it.
	now func() time.Time

	mu sync.Mutex
	// tok is the held token, which expires at expiry and is renewed from renewAt on
	// (both on the clock now).
	tok             *oauth2.Token
	expiry, renewAt time.Time
	// failed is the last request's failure while no token is held, until retryAt.
	failed  error
	retryAt time.Time
}

// NewTokens returns the tokens a's client gets from a's token endpoint.
func NewTokens(a config.TemporalAuth) *Tokens {
	params := url.Values{}
	if a.Audience != "" {
		params.Set("audience", a.Audience)
	}
	if a.Resource != "" {
		params.Set("resource", a.Resource)
	}
	return &Tokens{
		cc: clientcredentials.Config{ClientID: a.ClientID, ClientSecret: a.ClientSecret, TokenURL: a.TokenURL,
			Scopes: strings.Fields(a.Scope), EndpointParams: params},
		http: &http.Client{Timeout: fetchTimeout},
		now:  time.Now,
	}
}

// Token returns a valid access token, renewing it first when it is due.
func (t *Tokens) Token(ctx context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	held := t.tok != nil && now.Before(t.expiry)
	switch {
	case held && now.Before(t.renewAt):
		return t.tok.AccessToken, nil
	case !held && t.failed != nil && now.Before(t.retryAt):
		return "", t.failed
	}
	tok, err := t.cc.Token(context.WithValue(ctx, oauth2.HTTPClient, t.http))
	if err != nil {
		if held {
			t.renewAt = now.Add(retryAfter) // past expiry, held is false then
			return t.tok.AccessToken, nil
		}
		t.failed, t.retryAt = fmt.Errorf("access token for Temporal from %s: %w", t.cc.TokenURL, err), now.Add(retryAfter)
		return "", t.failed
	}
	t.failed = nil
	t.tok = tok
	if tok.Expiry.IsZero() {
		t.expiry = now.Add(unknownLifetime)
		t.renewAt = t.expiry
	} else {
		// oauth2 sets Expiry on the system clock when the answer came.
		life := time.Until(tok.Expiry)
		t.expiry = now.Add(life)
		t.renewAt = t.expiry.Add(-min(renewBefore, life/4))
	}
	return tok.AccessToken, nil
}
