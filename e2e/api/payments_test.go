package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// unpaidCase opens a tier-2 case for a user of a new organization that has no credit,
// so the case awaits payment; it returns the case ID, the user's token and the org.
func unpaidCase(t *testing.T) (id, tok, org string) {
	t.Helper()
	org = "unpaid-" + uuid.NewString()[:8]
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", org), Plan: "none",
		Credits: map[string]int{"1": 0, "2": 0, "3": 0}}); err != nil {
		t.Fatal(err)
	}
	tok = s.Mint(t, auth.Identity{Subject: "payer", Org: org, Roles: []string{schemas.RoleUser}})
	id = s.CreateCase(t, tok, "My landlord kept my deposit and I want to sue him in court for damages")
	// A message waits for tiering and the quota, and is refused: payment is due.
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "hello"}),
		http.StatusPaymentRequired, "payment-required")
	if r := s.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Body["phase"] != schemas.PhaseAwaitingPayment {
		t.Fatalf("the case is not awaiting payment: %s", r.Raw)
	}
	return id, tok, org
}

// caseSnapshot is what an attack must leave as it was: the stored case (its phase,
// payment and details version) and the workflow's phase.
func caseSnapshot(t *testing.T, id string) string {
	t.Helper()
	cs, err := s.Store.GetCase(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"phase": cs.Phase, "status": cs.Status, "payment": cs.Payment, "version": cs.Version})
	return string(b)
}

// TestClientCannotConfirmAPayment is finding 1: a client's own claim moved an unpaid
// case to active. The old route is gone and the case still awaits payment.
func TestClientCannotConfirmAPayment(t *testing.T) {
	t.Parallel()
	id, tok, _ := unpaidCase(t)
	before := caseSnapshot(t, id)
	r := s.Call(t, "POST", "/v1/cases/"+id+"/payment", tok, map[string]any{"reference": "i-promise"})
	stack.WantProblem(t, r, http.StatusGone, "gone")
	if !bytes.Contains(r.Raw, []byte("/checkout")) {
		t.Errorf("the 410 does not name the new flow: %s", r.Raw)
	}
	if after := caseSnapshot(t, id); after != before {
		t.Errorf("the case changed: %s, was %s", after, before)
	}
}

// sendWebhook posts a payload with a signature header to the webhook route.
func sendWebhook(t *testing.T, payload []byte, header string) stack.Response {
	t.Helper()
	return s.Call(t, "POST", "/v1/webhooks/payments", "", string(payload), payments.SignatureHeader, header)
}

// completedEvent is a checkout.session.completed event as Stripe sends it.
func completedEvent(eventID, session, caseID string, amount int64, currency string) []byte {
	b, _ := json.Marshal(map[string]any{"id": eventID, "object": "event", "type": payments.EventCheckoutCompleted,
		"created": time.Now().Unix(), "livemode": false, "api_version": "2025-07-30.basil",
		"data": map[string]any{"object": map[string]any{"id": session, "object": "checkout.session",
			"client_reference_id": caseID, "amount_total": amount, "currency": currency,
			"payment_status": "paid", "status": "complete"}}})
	return b
}

// stripeSigned signs payload as Stripe's own library does.
func stripeSigned(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

// TestWebhookConfirmsOnlyWhatTheProviderSigned sends the webhook route forged, stale,
// mismatched and replayed events: none changes the case; the one event Stripe's
// library signs for the open checkout activates it, once.
func TestWebhookConfirmsOnlyWhatTheProviderSigned(t *testing.T) {
	t.Parallel()
	id, tok, _ := unpaidCase(t)
	other, _, _ := unpaidCase(t)
	co := s.Call(t, "POST", "/v1/cases/"+id+"/checkout", tok, nil)
	if co.Status != http.StatusCreated || co.Body["amount"] != float64(14900) || co.Body["price"] != "149.00 EUR" {
		t.Fatalf("checkout: %d %s", co.Status, co.Raw)
	}
	session := co.Body["session_id"].(string)
	secret := string(s.WebhookSecret)
	now := time.Now()
	good := completedEvent("evt_"+uuid.NewString(), session, id, 14900, "eur")
	before, otherBefore := caseSnapshot(t, id), caseSnapshot(t, other)
	for _, a := range []struct {
		name    string
		payload []byte
		header  string
	}{
		{"unsigned", good, ""},
		{"signed with another secret", good, stripeSigned(good, "whsec_attacker", now)},
		{"signed six minutes ago", good, stripeSigned(good, secret, now.Add(-6*time.Minute))},
		{"a cheaper amount", completedEvent("evt_cheap", session, id, 100, "eur"), stripeSigned(completedEvent("evt_cheap", session, id, 100, "eur"), secret, now)},
		{"another currency", completedEvent("evt_ron", session, id, 14900, "ron"), stripeSigned(completedEvent("evt_ron", session, id, 14900, "ron"), secret, now)},
		{"this checkout for another case", completedEvent("evt_other", session, other, 14900, "eur"), stripeSigned(completedEvent("evt_other", session, other, 14900, "eur"), secret, now)},
		{"an unknown checkout", completedEvent("evt_unknown", "cs_test_made_up", id, 14900, "eur"), stripeSigned(completedEvent("evt_unknown", "cs_test_made_up", id, 14900, "eur"), secret, now)},
		{"not JSON", []byte("not json"), stripeSigned([]byte("not json"), secret, now)},
	} {
		r := sendWebhook(t, a.payload, a.header)
		stack.WantProblem(t, r, http.StatusBadRequest, "bad-webhook")
		if after := caseSnapshot(t, id); after != before {
			t.Fatalf("%s changed the case: %s, was %s", a.name, after, before)
		}
	}
	if after := caseSnapshot(t, other); after != otherBefore {
		t.Fatalf("the other case changed: %s, was %s", after, otherBefore)
	}
	// An event the provider sends that does not confirm a payment is acknowledged and
	// changes nothing.
	unpaid := bytes.Replace(good, []byte(`"paid"`), []byte(`"unpaid"`), 1)
	if r := sendWebhook(t, unpaid, stripeSigned(unpaid, secret, now)); r.Status != http.StatusOK || r.Body["status"] != "ignored" {
		t.Errorf("unpaid event: %d %s", r.Status, r.Raw)
	}

	r := sendWebhook(t, good, stripeSigned(good, secret, time.Now()))
	if r.Status != http.StatusOK || r.Body["status"] != "applied" {
		t.Fatalf("the provider's event: %d %s", r.Status, r.Raw)
	}
	paid := s.Call(t, "GET", "/v1/cases/"+id, tok, nil)
	payment, _ := paid.Body["payment"].(map[string]any)
	if paid.Body["phase"] != schemas.PhaseActive || payment["reference"] != session || payment["method"] != schemas.PaymentCheckout ||
		payment["amount"] != float64(14900) || payment["currency"] != "eur" || payment["by"] != "test" {
		t.Fatalf("after the webhook: %s", paid.Raw)
	}
	after := caseSnapshot(t, id)
	// The same event again (Stripe retries), and a second event for the same checkout:
	// acknowledged, and nothing changes.
	if r := sendWebhook(t, good, stripeSigned(good, secret, time.Now())); r.Status != http.StatusOK || r.Body["status"] != "applied" {
		t.Errorf("the event again: %d %s", r.Status, r.Raw)
	}
	second := completedEvent("evt_"+uuid.NewString(), session, id, 14900, "eur")
	if r := sendWebhook(t, second, stripeSigned(second, secret, time.Now())); r.Status != http.StatusOK || r.Body["status"] != "duplicate" {
		t.Errorf("a second event: %d %s", r.Status, r.Raw)
	}
	if again := caseSnapshot(t, id); again != after {
		t.Errorf("a replay changed the case: %s, was %s", again, after)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/checkout", tok, nil), http.StatusConflict, "conflict")
}

// TestCheckoutIsTheOwnersOnly: another tenant cannot open a checkout of the case, and
// a case with nothing to pay has no checkout.
func TestCheckoutIsTheOwnersOnly(t *testing.T) {
	t.Parallel()
	id, _, _ := unpaidCase(t)
	stranger := s.Mint(t, auth.Identity{Subject: "payer", Org: "elsewhere", Roles: []string{schemas.RoleUser}})
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/checkout", stranger, nil), http.StatusNotFound, "not-found")
	covered := s.Token(t, "covered")
	paidUp := s.CreateCase(t, covered, "A question about my employment contract's notice period")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+paidUp+"/checkout", covered, nil), http.StatusConflict, "conflict")
	// The test-mode page of an unknown session is a 404, and so is paying it.
	if resp, err := http.Get(s.APIURL + "/pay/cs_test_unknown"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown session's page: %v %v", resp.StatusCode, err)
	}
}

// TestOfflinePayment: the operator's billing staff record a bank transfer, audited; a
// firm's own billing staff, and users, cannot.
func TestOfflinePayment(t *testing.T) {
	t.Parallel()
	id, tok, org := unpaidCase(t)
	billing := s.Mint(t, auth.Identity{Subject: "bea", Roles: []string{schemas.RoleBilling}, Operator: true})
	firmBilling := s.Mint(t, auth.Identity{Subject: "fred", Org: org, Roles: []string{schemas.RoleBilling}})
	admin := s.Mint(t, auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin}, Operator: true})
	body := map[string]any{"reference": "RO49 BANK 2026-11-22", "amount": "149.00 EUR", "note": "transfer seen on the statement"}
	path := "/v1/billing/cases/" + id + "/payments"
	before := caseSnapshot(t, id)
	stack.WantProblem(t, s.Call(t, "POST", path, tok, body), http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "POST", path, firmBilling, body), http.StatusForbidden, "forbidden")
	for _, bad := range []map[string]any{
		{"reference": "", "amount": "149.00 EUR", "note": "n"},
		{"reference": "r", "amount": "lots", "note": "n"},
		{"reference": "r", "amount": "149.00 EUR", "note": ""},
	} {
		stack.WantProblem(t, s.Call(t, "POST", path, billing, bad), http.StatusUnprocessableEntity, "invalid-input")
	}
	if after := caseSnapshot(t, id); after != before {
		t.Fatalf("refused requests changed the case: %s, was %s", after, before)
	}
	r := s.Call(t, "POST", path, billing, body)
	payment, _ := r.Body["payment"].(map[string]any)
	if r.Status != http.StatusOK || r.Body["phase"] != schemas.PhaseActive || payment["method"] != schemas.PaymentOffline || payment["by"] != "bea" {
		t.Fatalf("offline payment: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "POST", path, billing, body), http.StatusConflict, "conflict")
	audit := s.Call(t, "GET", "/v1/admin/audit?case="+id, admin, nil)
	entries, _ := audit.Body["entries"].([]any)
	if audit.Status != http.StatusOK || len(entries) != 1 {
		t.Fatalf("audit of the case: %d %s", audit.Status, audit.Raw)
	}
	e := entries[0].(map[string]any)
	if e["action"] != "payment.offline" || e["actor"] != "bea" || e["org_id"] != org || e["detail"].(map[string]any)["note"] != body["note"] {
		t.Errorf("audit entry: %v", e)
	}
}

// TestStaffScope: staff of an organization act only on its cases; the operator's
// staff act on all, and each action is audited.
func TestStaffScope(t *testing.T) {
	t.Parallel()
	id, _, org := unpaidCase(t)
	own := s.Mint(t, auth.Identity{Subject: "desk", Org: org, Roles: []string{schemas.RoleSupport}})
	foreign := s.Mint(t, auth.Identity{Subject: "desk", Org: "another-firm", Roles: []string{schemas.RoleSupport}})
	operator := s.Mint(t, auth.Identity{Subject: "sam", Roles: []string{schemas.RoleSupport}, Operator: true})
	orgAdmin := s.Mint(t, auth.Identity{Subject: "boss", Org: org, Roles: []string{schemas.RoleAdmin}})
	tickets := "/v1/support/cases/" + id + "/tickets"
	stack.WantProblem(t, s.Call(t, "GET", tickets, foreign, nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/support/cases/"+id+"/resume", foreign, map[string]any{"action": "retry", "note": "n"}),
		http.StatusNotFound, "not-found")
	for _, tok := range []string{own, operator} {
		if r := s.Call(t, "GET", tickets, tok, nil); r.Status != http.StatusOK {
			t.Errorf("tickets in scope: %d %s", r.Status, r.Raw)
		}
	}
	// The support list of a firm's desk is a query for its organization only.
	if r := s.Call(t, "GET", "/v1/support/cases?status=paused_support", foreign, nil); !bytes.Contains(r.Raw, []byte("TenantID = 'another-firm'")) {
		t.Errorf("foreign desk's list query: %s", r.Raw)
	}
	// An organization's admin reads its audit log only, and can neither set credits
	// (its own organization's free cases) nor reload the prompts every tenant shares.
	r := s.Call(t, "GET", "/v1/admin/audit", orgAdmin, nil)
	entries, _ := r.Body["entries"].([]any)
	if r.Status != http.StatusOK || len(entries) != 2 {
		t.Fatalf("org admin's audit log: %d %s; want the two ticket reads", r.Status, r.Raw)
	}
	for _, e := range entries {
		if e := e.(map[string]any); e["org_id"] != org || e["action"] != "case.tickets.read" {
			t.Errorf("org admin reads %v", e)
		}
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/admin/audit?org=another-firm", orgAdmin, nil), http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/subscriptions/org:another-firm", orgAdmin, map[string]any{"plan": "free"}), http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/subscriptions/user:someone", orgAdmin, map[string]any{"plan": "free"}), http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/admin/prompts/reload", orgAdmin, nil), http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/admin/subscriptions/org:"+org, orgAdmin, map[string]any{"plan": "firm", "credits": map[string]int{"2": 9}}),
		http.StatusForbidden, "forbidden")
}

// TestTestModeCheckoutPage walks the test-mode provider's page as a browser would.
func TestTestModeCheckoutPage(t *testing.T) {
	t.Parallel()
	id, tok, _ := unpaidCase(t)
	co := s.Pay(t, id, tok)
	page, err := http.Get(co.Body["url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if !bytes.Contains(html, []byte(`id="status">Paid.`)) {
		t.Errorf("the page after paying: %s", html)
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Body["phase"] != schemas.PhaseActive {
		t.Errorf("after Pay: %s", r.Raw)
	}
}

// TestWebhookWhenNoWorkerAnswers: a paid event for a case whose workflow runs but whose
// worker does not answer (a deploy, a restart) is not acknowledged: the API answers
// 503, so the provider delivers it again, and the checkout keeps the event that paid it.
func TestWebhookWhenNoWorkerAnswers(t *testing.T) {
	t.Parallel()
	noWorker, _ := s.ServeQueue(t, "e2e-no-worker") // no worker polls this queue
	tok := s.Token(t, "nora")
	id := noWorker.CreateCase(t, tok, "A case no worker runs")
	session := "cs_test_" + uuid.NewString()
	if _, err := s.Store.OpenCheckout(t.Context(), store.Checkout{ID: session, Provider: "test", CaseID: id, OrgID: "acme",
		UserID: "nora", Tier: 2, Amount: 14900, Currency: "eur"}); err != nil {
		t.Fatal(err)
	}
	event := completedEvent("evt_"+uuid.NewString(), session, id, 14900, "eur")
	for range 2 {
		stack.WantProblem(t, noWorker.Call(t, "POST", "/v1/webhooks/payments", "", string(event),
			payments.SignatureHeader, stripeSigned(event, string(s.WebhookSecret), time.Now())), http.StatusServiceUnavailable, "unavailable")
	}
	if co, err := s.Store.GetCheckout(t.Context(), session); err != nil || co.Status != store.CheckoutPaid {
		t.Errorf("checkout: %+v, %v; want it paid by the event", co, err)
	}
}

// TestCasePrice: a client reads the price of their case's tier before the checkout,
// the same the checkout then charges, with whether it is due; a case a subscription
// covers shows its price as not due; another tenant gets 404.
func TestCasePrice(t *testing.T) {
	t.Parallel()
	id, tok, _ := unpaidCase(t)
	r := s.Call(t, "GET", "/v1/cases/"+id+"/price", tok, nil)
	if r.Status != http.StatusOK || r.Body["tier"] != float64(2) || r.Body["due"] != true || r.Body["price"] != stack.Prices[2].String() {
		t.Fatalf("price: %d %s", r.Status, r.Raw)
	}
	co := s.Call(t, "POST", "/v1/cases/"+id+"/checkout", tok, nil)
	if co.Status != http.StatusCreated || co.Body["amount"] != r.Body["amount"] || co.Body["currency"] != r.Body["currency"] {
		t.Errorf("the checkout charges %s; the price said %s", co.Raw, r.Raw)
	}
	stranger := s.Mint(t, auth.Identity{Subject: "payer", Org: "elsewhere", Roles: []string{schemas.RoleUser}})
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/price", stranger, nil), http.StatusNotFound, "not-found")
	covered := s.Token(t, "covered")
	paidUp := s.CreateCase(t, covered, "A question about my employment contract's notice period")
	s.Send(t, covered, paidUp, "hello") // past tiering and the quota
	if r := s.Call(t, "GET", "/v1/cases/"+paidUp+"/price", covered, nil); r.Status != http.StatusOK || r.Body["due"] != false || r.Body["amount"] == nil {
		t.Errorf("a covered case's price: %d %s", r.Status, r.Raw)
	}
}
