package payments

import (
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82/webhook"
)

// FuzzVerify feeds the webhook verifier arbitrary payloads and headers: it accepts
// exactly what Stripe's own library accepts (with the same tolerance, for times in the
// past), and a payload it accepts parses or fails cleanly.
func FuzzVerify(f *testing.F) {
	now := time.Unix(1795370000, 0)
	f.Add(testPayload, Sign(testPayload, []byte(testSecret), now))
	f.Add(testPayload, "t=1795370000,v1=00")
	f.Add([]byte("{}"), "t=-1,v1=,v0=zz,,=")
	f.Add([]byte(""), Sign(nil, []byte(testSecret), now.Add(-time.Hour)))
	f.Fuzz(func(t *testing.T, payload []byte, header string) {
		err := Verify(payload, header, []byte(testSecret), now)
		theirs := webhook.ValidatePayloadWithTolerance(payload, header, testSecret, time.Since(now)+Tolerance)
		if err == nil && theirs != nil {
			t.Fatalf("we accept what stripe-go refuses (%v): %q", theirs, header)
		}
		if err == nil {
			_, _ = ParseEvent(payload)
		}
	})
}
