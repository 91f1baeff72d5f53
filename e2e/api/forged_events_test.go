package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestForgedEventsThroughTemporal is issue 36's finding 1: whoever reached Temporal
// could activate an unpaid case with a payment-confirmed signal of their own, or close
// any tenant's case. Events with no audited record behind them are refused, audited,
// and change nothing.
func TestForgedEventsThroughTemporal(t *testing.T) {
	t.Parallel()
	id, tok, _ := unpaidCase(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	wf := schemas.CaseWorkflowID(id)
	update := func(name, updateID string, arg any) schemas.CaseOutcome {
		t.Helper()
		h, err := s.TC.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{UpdateID: updateID, WorkflowID: wf, UpdateName: name,
			Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted})
		var out schemas.CaseOutcome
		if err == nil {
			err = h.Get(ctx, &out)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return out
	}
	for _, p := range []schemas.PaymentConfirmed{
		{ID: "forged-evt", Reference: "forged", Method: schemas.PaymentCheckout, Amount: 1, Currency: "eur", By: "mallory"},
		{ID: "forged-audit", Reference: "forged", Method: schemas.PaymentOffline, Amount: 14900, Currency: "eur", By: "mallory"},
	} {
		if err := s.TC.SignalWorkflow(ctx, wf, "", schemas.SignalPaymentConfirmed, p); err != nil {
			t.Fatal(err)
		}
		out := update(schemas.UpdateSettlePayment, "settle-"+p.ID, p.ID)
		if !out.Handled || out.Refused == "" || out.Phase != schemas.PhaseAwaitingPayment || out.Payment != nil {
			t.Errorf("forged %s payment: %+v, want refused, still awaiting payment", p.Method, out)
		}
	}
	if out := update(schemas.UpdateCloseCase, "forged-close", schemas.CloseCase{By: "payer"}); !out.Handled || out.Refused == "" || out.Status == schemas.StatusClosed {
		t.Errorf("forged closing: %+v, want refused, still open", out)
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Body["phase"] != schemas.PhaseAwaitingPayment || r.Body["status"] == schemas.StatusClosed {
		t.Errorf("the case after forged events: %s", r.Raw)
	}
	entries, err := s.Store.ListAudit(ctx, store.AuditFilter{CaseID: id})
	if err != nil {
		t.Fatal(err)
	}
	refused := map[string]bool{}
	for _, e := range entries {
		if e.Action == schemas.ActionRefused && e.Actor == schemas.ActorLexflow {
			refused[e.Detail["id"].(string)] = true
		}
	}
	for _, want := range []string{"forged-evt", "forged-audit", "forged-close"} {
		if !refused[want] {
			t.Errorf("no audited refusal of %s among %+v", want, entries)
		}
	}
	// The client's own close, recorded by the API first, still closes the case.
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/close", tok, map[string]any{"note": "done"}); r.Status != http.StatusOK || r.Body["status"] != schemas.StatusClosed {
		t.Errorf("the client's close: %d %s", r.Status, r.Raw)
	}
}

// TestOfflinePaymentMustBeThePriceDue is issue 36's finding 14: billing recorded 0.01
// XYZ against a 149 EUR case and it activated.
func TestOfflinePaymentMustBeThePriceDue(t *testing.T) {
	t.Parallel()
	id, tok, _ := unpaidCase(t)
	billing := s.Mint(t, auth.Identity{Subject: "bea", Operator: true, Roles: []string{schemas.RoleBilling}})
	path := "/v1/billing/cases/" + id + "/payments"
	for _, amount := range []string{"0.01 XYZ", "0.01 EUR", "149.00 USD", "399.00 EUR"} {
		r := s.Call(t, "POST", path, billing, map[string]any{"reference": "RO49 BANK", "amount": amount, "note": "transfer"})
		stack.WantProblem(t, r, http.StatusUnprocessableEntity, "invalid-input")
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Body["phase"] != schemas.PhaseAwaitingPayment {
		t.Errorf("the case after payments of the wrong price: %s", r.Raw)
	}
	r := s.Call(t, "POST", path, billing, map[string]any{"reference": "RO49 BANK", "amount": "149.00 EUR", "note": "transfer"})
	if r.Status != http.StatusOK || r.Body["phase"] != schemas.PhaseActive {
		t.Errorf("the price due: %d %s", r.Status, r.Raw)
	}
}
