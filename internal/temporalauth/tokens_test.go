package temporalauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lexflow/lexflow/config"
)

// tokenEndpoint is an OAuth token endpoint on loopback that answers the
// client-credentials grant of client lexflow-worker (secret s3cret) with tokens
// token-1, token-2, … living lifetime, or fails while down is set. It records the
// audience asked for.
type tokenEndpoint struct {
	*httptest.Server
	issued   atomic.Int32
	asked    atomic.Int32
	down     atomic.Bool
	audience atomic.Value
}

func startTokenEndpoint(t *testing.T, lifetime time.Duration) *tokenEndpoint {
	e := &tokenEndpoint{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.asked.Add(1)
		id, secret, _ := r.BasicAuth()
		if r.ParseForm() != nil || r.Form.Get("grant_type") != "client_credentials" || id != "lexflow-worker" || secret != "s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":"invalid_client"}`)
			return
		}
		if e.down.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		e.audience.Store(r.Form.Get("audience"))
		n := e.issued.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("token-%d", n), "token_type": "Bearer",
			"expires_in": int(lifetime.Seconds())})
	}))
	t.Cleanup(e.Close)
	return e
}

func TestTokensRenewBeforeExpiry(t *testing.T) {
	e := startTokenEndpoint(t, 10*time.Minute)
	tokens := NewTokens(config.TemporalAuth{TokenURL: e.URL, ClientID: "lexflow-worker", ClientSecret: "s3cret", Audience: "temporal"})
	start := time.Now()
	at := start
	tokens.now = func() time.Time { return at }
	get := func(want string) {
		t.Helper()
		got, err := tokens.Token(context.Background())
		if err != nil || got != want {
			t.Fatalf("at +%v: token %q, %v; want %q", at.Sub(start), got, err, want)
		}
	}
	get("token-1")
	if a := e.audience.Load(); a != "temporal" {
		t.Errorf("audience asked for = %v, want temporal", a)
	}
	at = start.Add(8 * time.Minute)
	get("token-1")
	at = start.Add(9*time.Minute + 30*time.Second) // within a minute of expiry
	get("token-2")
	if n := e.issued.Load(); n != 2 {
		t.Errorf("tokens issued = %d, want 2", n)
	}

	// The endpoint down: the held token serves until it expires, then the error shows;
	// the endpoint is asked once every retryAfter, not at every call.
	e.down.Store(true)
	at = start.Add(19*time.Minute + 5*time.Second)
	asked := e.asked.Load()
	get("token-2")
	get("token-2")
	if n := e.asked.Load() - asked; n != 1 {
		t.Errorf("the endpoint down, with a token held: asked %d times for two calls, want 1", n)
	}
	at = start.Add(20 * time.Minute)
	asked = e.asked.Load()
	for range 3 {
		if got, err := tokens.Token(context.Background()); err == nil {
			t.Errorf("after expiry with the endpoint down: %q, want an error", got)
		}
	}
	if n := e.asked.Load() - asked; n != 1 {
		t.Errorf("the endpoint down, no token held: asked %d times for three calls, want 1", n)
	}
	e.down.Store(false)
	at = at.Add(retryAfter)
	get("token-3")
}

func TestTokensRefusedClient(t *testing.T) {
	e := startTokenEndpoint(t, time.Minute)
	tokens := NewTokens(config.TemporalAuth{TokenURL: e.URL, ClientID: "lexflow-worker", ClientSecret: "wrong"})
	if got, err := tokens.Token(context.Background()); err == nil {
		t.Errorf("with a wrong secret: token %q, want an error", got)
	}
}
