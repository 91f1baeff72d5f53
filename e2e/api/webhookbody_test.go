package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/internal/payments"
)

// postWebhook sends body to the webhook route with header as its signature, and
// length as its Content-Length (-1: unsaid, chunked); it returns the status and the
// problem type, or fails if no answer comes within ten seconds.
func postWebhook(t *testing.T, body io.Reader, length int64, header string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", s.APIURL+"/v1/webhooks/payments", body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", "application/json")
	if header != "" {
		req.Header.Set(payments.SignatureHeader, header)
	}
	resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	var p struct {
		Type string `json:"type"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&p)
	return resp.StatusCode, strings.TrimPrefix(p.Type, api.ProblemTypeBase)
}

// endless is a body that sends its first bytes and then nothing more until the test
// ends, as a client trickling it would.
func endless(t *testing.T, first string) io.Reader {
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.CloseWithError(io.ErrUnexpectedEOF) })
	go func() { _, _ = pw.Write([]byte(first)) }()
	return pr
}

// TestAttackWebhookBodyIsReadOnlyAfterItsHeader is issue 36's finding 12, its webhook
// half: the payment webhook read an unauthenticated body before it looked at the
// signature. Now a missing, malformed or stale signature header is refused before any
// of the body is read (a body that never ends is answered at once), a body past 64
// KiB is refused from its length or once that much has come, and a body is verified
// before it is parsed.
func TestAttackWebhookBodyIsReadOnlyAfterItsHeader(t *testing.T) {
	t.Parallel()
	secret := string(s.WebhookSecret)
	now := time.Now()
	for _, a := range []struct {
		name, header string
	}{
		{"no signature", ""},
		{"a malformed signature", "v1=abc"},
		{"signed six minutes ago", stripeSigned([]byte("{}"), secret, now.Add(-6*time.Minute))},
		{"signed six minutes ahead", stripeSigned([]byte("{}"), secret, now.Add(6*time.Minute))},
	} {
		if st, typ := postWebhook(t, endless(t, `{"id": "evt_`), -1, a.header); st != http.StatusBadRequest || typ != "bad-webhook" {
			t.Errorf("%s, with a body that never ends: %d %s, want 400 bad-webhook", a.name, st, typ)
		}
	}
	big := append([]byte(`{"id": "evt_big", "pad": "`), bytes.Repeat([]byte("x"), 70<<10)...)
	big = append(big, `"}`...)
	signed := stripeSigned(big, secret, now)
	if st, typ := postWebhook(t, endless(t, string(big[:100])), int64(len(big)), signed); st != http.StatusRequestEntityTooLarge || typ != "too-large" {
		t.Errorf("a signed body of 70 KiB by its length: %d %s, want 413 too-large before it is read", st, typ)
	}
	if st, typ := postWebhook(t, bytes.NewReader(big), -1, signed); st != http.StatusRequestEntityTooLarge || typ != "too-large" {
		t.Errorf("a signed body of 70 KiB, chunked: %d %s, want 413 too-large", st, typ)
	}
	// Not JSON, and not signed with the secret: the signature refuses it, not the parser.
	garbage := []byte(`{"id": `)
	if r := sendWebhook(t, garbage, stripeSigned(garbage, "whsec_attacker", now)); r.Status != http.StatusBadRequest ||
		!strings.Contains(r.Body["detail"].(string), "signature") {
		t.Errorf("an unsigned body that is not JSON: %d %s, want the signature's refusal", r.Status, r.Raw)
	}
}
