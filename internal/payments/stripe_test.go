package payments

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/testenv"
)

// TestStripeCheckoutAgainstStripeMock opens a checkout session through Stripe's own
// API mock, which checks the request against Stripe's OpenAPI specification.
func TestStripeCheckoutAgainstStripeMock(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	mock, err := testenv.StartStripeMock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Stop()
	s := &Stripe{Key: "sk_test_123", BaseURL: mock.URL}
	req := CheckoutRequest{CaseID: "case-1", Tier: 2, Price: Price{14900, "eur"},
		SuccessURL: "http://127.0.0.1:8080/?case=case-1&checkout=success", CancelURL: "http://127.0.0.1:8080/?case=case-1&checkout=cancel"}
	got, err := s.Checkout(ctx, req)
	if err != nil {
		t.Fatalf("Checkout = %v", err)
	}
	if !strings.HasPrefix(got.ID, "cs_") || !strings.HasPrefix(got.URL, "https://") {
		t.Errorf("Checkout = %+v, want a cs_ session with an https URL", got)
	}
	bad := &Stripe{Key: "", BaseURL: mock.URL}
	// Stripe's refusal is a provider error that carries Stripe's status and message.
	_, err = bad.Checkout(ctx, CheckoutRequest{CaseID: "c", Tier: 1, Price: Price{100, "eur"}})
	if !errors.Is(err, ErrProvider) || !strings.Contains(err.Error(), "401") {
		t.Errorf("Checkout without a key = %v, want ErrProvider with Stripe's 401", err)
	}
}
