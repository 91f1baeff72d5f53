package payments

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// TestMode is the payment provider of `lexflow dev`: it plays Stripe's test mode on
// the API's own server. Its checkout page (GET /pay/<session>) shows what is due and a
// "Pay" button; pressing it (POST /pay/<session>) sends the API a
// checkout.session.completed event signed with the webhook secret, exactly as Stripe
// would, and then sends the client to the checkout's success URL. Sessions live in
// this process only, as they live on Stripe's side in production, and expire after a
// day.
type TestMode struct {
	// Secret signs the webhooks; the API verifies them with the same secret.
	Secret []byte
	// BaseURL is where the API serves the checkout pages, WebhookURL its webhook route.
	BaseURL    string
	WebhookURL string
	// HTTP sends the webhooks; nil means one with a 30-second timeout.
	HTTP *http.Client

	mu       sync.Mutex
	sessions map[string]*testSession
}

// testSession is a checkout session of the test-mode provider.
type testSession struct {
	CheckoutRequest
	created time.Time
	paid    bool
}

// Test-mode sessions expire after a day, as Stripe's do, and at most maxTestSessions
// are open at once.
const (
	testSessionTTL  = 24 * time.Hour
	maxTestSessions = 10000
)

// ErrUnknownSession means the test-mode provider has no such session (it expired, or
// the process restarted since the checkout opened).
var ErrUnknownSession = errors.New("unknown or expired checkout session")

var _ Provider = (*TestMode)(nil)

// Name is "test".
func (m *TestMode) Name() string { return "test" }

// Checkout opens a session and answers with its page's URL.
func (m *TestMode) Checkout(_ context.Context, r CheckoutRequest) (Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if m.sessions == nil {
		m.sessions = map[string]*testSession{}
	}
	for id, s := range m.sessions {
		if now.Sub(s.created) > testSessionTTL {
			delete(m.sessions, id)
		}
	}
	if len(m.sessions) >= maxTestSessions {
		return Session{}, fmt.Errorf("%w: the test-mode provider has %d open sessions", ErrProvider, maxTestSessions)
	}
	id := "cs_test_" + randomHex(12)
	m.sessions[id] = &testSession{CheckoutRequest: r, created: now}
	return Session{ID: id, URL: strings.TrimSuffix(m.BaseURL, "/") + "/pay/" + id}, nil
}

// session returns an open session, or ErrUnknownSession.
func (m *TestMode) session(id string) (testSession, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok || time.Since(s.created) > testSessionTTL {
		return testSession{}, ErrUnknownSession
	}
	return *s, nil
}

var pageTemplate = template.Must(template.New("pay").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lexflow test-mode checkout</title></head>
<body><main>
<h1>Test-mode checkout</h1>
<p>No money moves: this is the payment provider of <code>lexflow dev</code>.</p>
<p>Case <strong>{{.CaseID}}</strong>, tier {{.Tier}}: <strong id="amount">{{.Price}}</strong></p>
{{if .Paid}}<p id="status">Paid.</p>{{else}}
<form method="post" action="/pay/{{.ID}}"><button id="pay" type="submit">Pay</button></form>
<p><a href="{{.CancelURL}}">Cancel</a></p>{{end}}
</main></body></html>
`))

// ServePage writes the checkout page of session id.
func (m *TestMode) ServePage(w http.ResponseWriter, id string) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	return pageTemplate.Execute(w, struct {
		CheckoutRequest
		ID   string
		Paid bool
	}{s.CheckoutRequest, id, s.paid})
}

// Pay pays session id: it sends the API the signed checkout.session.completed event
// and returns the URL to send the client to. Paying a paid session sends nothing.
func (m *TestMode) Pay(ctx context.Context, id string) (string, error) {
	s, err := m.session(id)
	if err != nil {
		return "", err
	}
	if s.paid {
		return s.SuccessURL, nil
	}
	payload, err := json.Marshal(map[string]any{
		"id": "evt_test_" + randomHex(12), "object": "event", "type": EventCheckoutCompleted,
		"created": time.Now().Unix(), "livemode": false,
		"data": map[string]any{"object": CheckoutSession{
			ID: id, Object: "checkout.session", ClientReferenceID: s.CaseID, AmountTotal: s.Price.Amount,
			Currency: s.Price.Currency, PaymentStatus: "paid", Status: "complete",
			Metadata: map[string]string{"case_id": s.CaseID, "tier": fmt.Sprint(s.Tier)},
		}},
	})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.WebhookURL, bytes.NewReader(payload))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, Sign(payload, m.Secret, time.Now()))
	client := m.HTTP
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("send the webhook: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("the webhook answered %d: %s", resp.StatusCode, body)
	}
	m.mu.Lock()
	if live, ok := m.sessions[id]; ok {
		live.paid = true
	}
	m.mu.Unlock()
	return s.SuccessURL, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
