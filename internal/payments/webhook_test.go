package payments

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82/webhook"
)

const testSecret = "whsec_test_0123456789abcdef"

var testPayload = []byte(`{"id":"evt_1","object":"event","type":"checkout.session.completed","data":{"object":{"id":"cs_test_1","object":"checkout.session","amount_total":14900,"currency":"eur","payment_status":"paid"}}}`)

// TestStripeVerifiesOurSignature checks our signer against Stripe's own Go library.
func TestStripeVerifiesOurSignature(t *testing.T) {
	header := Sign(testPayload, []byte(testSecret), time.Now())
	if err := webhook.ValidatePayload(testPayload, header, testSecret); err != nil {
		t.Fatalf("stripe-go refused our signature %q: %v", header, err)
	}
	ev, err := webhook.ConstructEventWithOptions(testPayload, header, testSecret, webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil || ev.ID != "evt_1" || string(ev.Type) != EventCheckoutCompleted {
		t.Fatalf("stripe-go read %+v, %v", ev, err)
	}
}

// TestWeVerifyStripesSignature checks our verifier against Stripe's own Go library's
// signatures, and refuses what it refuses.
func TestWeVerifyStripesSignature(t *testing.T) {
	now := time.Now()
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: testPayload, Secret: testSecret, Timestamp: now})
	if err := Verify(testPayload, signed.Header, []byte(testSecret), now); err != nil {
		t.Fatalf("Verify refused stripe-go's header %q: %v", signed.Header, err)
	}
	// A rotated secret: Stripe sends a v1 signature for each secret in use.
	other := webhook.ComputeSignature(now, testPayload, "whsec_old")
	rotated := fmt.Sprintf("t=%d,v1=%x,v1=%x", now.Unix(), other, signed.Signature)
	if err := Verify(testPayload, rotated, []byte(testSecret), now); err != nil {
		t.Errorf("Verify refused a header with the right signature second: %v", err)
	}
	if err := webhook.ValidatePayload(testPayload, rotated, testSecret); err != nil {
		t.Errorf("stripe-go refused the rotated header: %v", err)
	}
}

// TestVerifyRefuses lists the webhooks an attacker can send; stripe-go must refuse
// each as well (with the same tolerance), so our verifier is no looser than Stripe's.
func TestVerifyRefuses(t *testing.T) {
	now := time.Now()
	good := Sign(testPayload, []byte(testSecret), now)
	v1 := strings.SplitN(good, "v1=", 2)[1]
	for _, c := range []struct {
		name, header string
		payload      []byte
		want         error
	}{
		{"no header", "", testPayload, errNoHeader},
		{"garbage", "hello", testPayload, errBadHeader},
		{"no time", "v1=" + v1, testPayload, errBadHeader},
		{"no v1", fmt.Sprintf("t=%d,v0=%s", now.Unix(), v1), testPayload, errBadHeader},
		{"another secret", Sign(testPayload, []byte("whsec_attacker"), now), testPayload, errNoMatch},
		{"another body", good, []byte(strings.Replace(string(testPayload), "14900", "1", 1)), errNoMatch},
		{"another time", fmt.Sprintf("t=%d,v1=%s", now.Unix()+1, v1), testPayload, errNoMatch},
		{"stale", Sign(testPayload, []byte(testSecret), now.Add(-Tolerance-time.Second)), testPayload, errStale},
		{"huge", strings.Repeat("v1=00,", 1000), testPayload, errBadHeader},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Verify(c.payload, c.header, []byte(testSecret), now)
			if !errors.Is(err, c.want) || !errors.Is(err, ErrSignature) {
				t.Errorf("Verify = %v, want %v", err, c.want)
			}
			if webhook.ValidatePayloadWithTolerance(c.payload, c.header, testSecret, Tolerance) == nil {
				t.Errorf("stripe-go accepts what we refuse: %q", c.header)
			}
		})
	}
	// Stripe accepts a time in the future; we refuse one further than the tolerance,
	// since a clock that far ahead signs webhooks that would stay valid too long.
	future := Sign(testPayload, []byte(testSecret), now.Add(Tolerance+time.Minute))
	if err := Verify(testPayload, future, []byte(testSecret), now); !errors.Is(err, errStale) {
		t.Errorf("Verify(future) = %v, want %v", err, errStale)
	}
}

func TestParseEvent(t *testing.T) {
	e, err := ParseEvent(testPayload)
	if err != nil || e.ID != "evt_1" || !e.Paid() || e.Data.Object.ID != "cs_test_1" || e.Data.Object.AmountTotal != 14900 {
		t.Fatalf("ParseEvent = %+v, %v", e, err)
	}
	for _, bad := range []string{`{}`, `[]`, `{"id":"evt_1"}`, `{"id":"evt_1","type":"checkout.session.completed","data":{"object":{}}}`, `nope`} {
		if _, err := ParseEvent([]byte(bad)); err == nil {
			t.Errorf("ParseEvent(%s) = nil error", bad)
		}
	}
	unpaid := strings.Replace(string(testPayload), `"paid"`, `"unpaid"`, 1)
	if e, _ := ParseEvent([]byte(unpaid)); e.Paid() {
		t.Errorf("an unpaid completed session counts as paid")
	}
}
