package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestAttackStreamsPerUser is issue 36's finding 5, its first half: one user held 60
// event streams open at once, each polling the store ten times a second. Now a user
// holds api.MaxStreamsPerUser on one API process; the next answers 429 with a problem
// that says so, while another user's stream opens, and a closed stream frees its place.
func TestAttackStreamsPerUser(t *testing.T) {
	t.Parallel()
	own := s.Serve(t, nil) // a process of its own: its counts are this test's
	hog := s.Mint(t, auth.Identity{Subject: "stream-hog", Org: "acme", Roles: []string{schemas.RoleUser}})
	id := own.CreateCase(t, hog, "A case to watch many times over")
	cancels := make([]context.CancelFunc, api.MaxStreamsPerUser)
	for i := range cancels {
		ctx, cancel := context.WithCancel(t.Context())
		cancels[i] = cancel
		stack.OpenEvents(ctx, t, own.APIURL, hog, id, "")
	}
	r := own.Call(t, "GET", "/v1/cases/"+id+"/events", hog, nil, "Accept", "text/event-stream")
	stack.WantProblem(t, r, http.StatusTooManyRequests, "too-many-requests")
	if !strings.Contains(fmt.Sprint(r.Body["detail"]), strconv.Itoa(api.MaxStreamsPerUser)+" event streams") || r.Header.Get("Retry-After") == "" {
		t.Errorf("the refusal does not say why, or when to retry: %s %v", r.Raw, r.Header)
	}
	// A streamed message is refused before its turn runs.
	r = own.Call(t, "POST", "/v1/cases/"+id+"/messages", hog, map[string]any{"message": "hello"}, "Accept", "text/event-stream")
	stack.WantProblem(t, r, http.StatusTooManyRequests, "too-many-requests")
	// The JSON pages are not streams.
	if r := own.Call(t, "GET", "/v1/cases/"+id+"/events", hog, nil); r.Status != http.StatusOK {
		t.Errorf("a page of events: %d %s", r.Status, r.Raw)
	}

	other := s.Mint(t, auth.Identity{Subject: "stream-neighbour", Org: "acme", Roles: []string{schemas.RoleUser}})
	theirs := own.CreateCase(t, other, "A case of another user")
	stack.OpenEvents(t.Context(), t, own.APIURL, other, theirs, "")

	cancels[0]()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		req, _ := http.NewRequestWithContext(ctx, "GET", own.APIURL+"/v1/cases/"+id+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+hog)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		cancel()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed stream did not free its place: %d", resp.StatusCode)
		}
	}
}

// TestAttackStreamEndsWithItsToken is issue 36's finding 5, its second half: a stream
// opened with a token that then expired kept delivering events, and the codec cookie
// lived 30 minutes whatever the token's expiry. Now the stream ends when its token
// expires, with a last reconnect event that says to come back with a fresh token, and
// the codec cookie expires with the token that opened it.
func TestAttackStreamEndsWithItsToken(t *testing.T) {
	t.Parallel()
	id := s.CreateCase(t, s.Token(t, "short-lived"), "A case watched with a short token")
	short, err := s.Signer.Mint(auth.Identity{Subject: "short-lived", Org: "acme", Roles: []string{schemas.RoleUser}}, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	events := stack.OpenEvents(t.Context(), t, s.APIURL, short, id, "")
	for {
		e := stack.NextEvent(t, events, 30*time.Second)
		if e.Type != api.EventReconnect {
			continue // the case's own events
		}
		var end api.StreamEnd
		if err := json.Unmarshal([]byte(e.Data), &end); err != nil || end.Reason != api.ReasonTokenExpired || e.ID != "" {
			t.Errorf("the last event: %+v", e)
		}
		break
	}
	select {
	case e, ok := <-events:
		if ok {
			t.Errorf("the stream went on after its token expired: %+v", e)
		}
	case <-time.After(10 * time.Second):
		t.Error("the stream stayed open after its token expired")
	}

	staff, err := s.Signer.Mint(auth.Identity{Subject: "desk-short", Org: "acme", Roles: []string{schemas.RoleSupport}}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Call(t, "POST", "/v1/support/codec-session", staff, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("codec session: %d %s", r.Status, r.Raw)
	}
	cookie, err := http.ParseSetCookie(r.Header.Get("Set-Cookie"))
	if err != nil {
		t.Fatal(err)
	}
	expires, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(r.Body["expires_at"]))
	if cookie.MaxAge <= 0 || cookie.MaxAge > 60 || expires.After(time.Now().Add(time.Minute)) {
		t.Errorf("a codec cookie opened with a token of a minute lives %d s, until %v", cookie.MaxAge, expires)
	}
}
