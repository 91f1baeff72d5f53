package payments

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// StripeAPI is Stripe's API base URL.
const StripeAPI = "https://api.stripe.com"

// Stripe opens checkouts with Stripe's API: a Checkout Session in payment mode with one
// line item, the case's tier at its price. Stripe then confirms the payment with a
// checkout.session.completed webhook, signed with the endpoint's secret.
type Stripe struct {
	// Key is the secret API key (sk_live_… or sk_test_…).
	Key string
	// BaseURL is StripeAPI, or a stand-in such as stripe-mock in tests.
	BaseURL string
	// HTTP is the client the calls go through; nil means one with a 30-second timeout.
	HTTP *http.Client
}

var _ Provider = (*Stripe)(nil)

// Name is "stripe".
func (s *Stripe) Name() string { return "stripe" }

// Checkout creates a Checkout Session (POST /v1/checkout/sessions).
func (s *Stripe) Checkout(ctx context.Context, r CheckoutRequest) (Session, error) {
	form := url.Values{
		"mode":                                          {"payment"},
		"client_reference_id":                           {r.CaseID},
		"metadata[case_id]":                             {r.CaseID},
		"metadata[tier]":                                {strconv.Itoa(r.Tier)},
		"line_items[0][quantity]":                       {"1"},
		"line_items[0][price_data][currency]":           {r.Price.Currency},
		"line_items[0][price_data][unit_amount]":        {strconv.FormatInt(r.Price.Amount, 10)},
		"line_items[0][price_data][product_data][name]": {fmt.Sprintf("Lexflow case %s (tier %d)", r.CaseID, r.Tier)},
		"success_url":                                   {r.SuccessURL},
		"cancel_url":                                    {r.CancelURL},
	}
	base := s.BaseURL
	if base == "" {
		base = StripeAPI
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(base, "/")+"/v1/checkout/sessions", strings.NewReader(form.Encode()))
	if err != nil {
		return Session{}, fmt.Errorf("%w: %w", ErrProvider, err)
	}
	req.Header.Set("Authorization", "Bearer "+s.Key)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	client := s.HTTP
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return Session{}, fmt.Errorf("%w: %w", ErrProvider, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return Session{}, fmt.Errorf("%w: read the answer: %w", ErrProvider, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(body, &e)
		return Session{}, fmt.Errorf("%w: Stripe answered %d: %s %s", ErrProvider, resp.StatusCode, e.Error.Type, e.Error.Message)
	}
	var cs CheckoutSession
	if err := json.Unmarshal(body, &cs); err != nil || cs.ID == "" || cs.URL == "" {
		return Session{}, fmt.Errorf("%w: Stripe's answer has no session ID and URL", ErrProvider)
	}
	return Session{ID: cs.ID, URL: cs.URL}, nil
}
