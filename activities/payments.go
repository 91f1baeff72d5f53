package activities

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// PaymentStore is what Payments reads and writes: the checkouts and the audit log
// that back a payment, and the case it is recorded on.
type PaymentStore interface {
	store.Cases
	store.Checkouts
	store.Audit
}

// Payments records the payments of cases that no subscription covered, once each is
// found backed by what the store recorded and worth the price due.
type Payments struct {
	Store PaymentStore
	// Prices is a case's price by tier (LEXFLOW_PRICES).
	Prices map[int]payments.Price
}

// RecordPayment stores a case's payment and returns the one stored. The payment must
// be backed by a record the API wrote: a checkout the provider's verified webhook
// marked paid by the event the payment names, or billing's audited offline payment,
// for the case, at the price of its tier (amount and currency). Its amount, currency,
// reference and actor are taken from that record, not from the signal. Anything else
// is refused (ErrEventRefused), audited, and not stored.
func (a *Payments) RecordPayment(ctx context.Context, in schemas.RecordPayment) (schemas.PaymentConfirmed, error) {
	p, reason, err := a.backed(ctx, in)
	if err != nil {
		return schemas.PaymentConfirmed{}, err
	}
	if reason != "" {
		return schemas.PaymentConfirmed{}, refuse(ctx, a.Store, in.CaseID, "payment", in.Payment.ID, in.Payment.By, reason)
	}
	stored, err := a.Store.SetPayment(ctx, in.CaseID, store.Payment(p))
	return schemas.PaymentConfirmed(stored), permanent(err)
}

// backed returns the payment as the record behind in's names it, or the reason it is
// not backed.
func (a *Payments) backed(ctx context.Context, in schemas.RecordPayment) (schemas.PaymentConfirmed, string, error) {
	price, ok := a.Prices[in.Tier]
	if !ok {
		return schemas.PaymentConfirmed{}, fmt.Sprintf("no price is configured for tier %d", in.Tier), nil
	}
	p := in.Payment
	switch p.Method {
	case schemas.PaymentCheckout:
		co, err := a.Store.GetCheckout(ctx, p.Reference)
		switch {
		case isNotFound(err):
			return p, "no checkout " + p.Reference, nil
		case err != nil:
			return p, "", err
		case co.CaseID != in.CaseID:
			return p, "the checkout is another case's", nil
		case co.Status != store.CheckoutPaid || co.EventID != p.ID:
			return p, "the checkout was not paid by event " + p.ID, nil
		case co.Amount != price.Amount || co.Currency != price.Currency:
			return p, fmt.Sprintf("the checkout's %s is not the price due, %s", payments.Price{Amount: co.Amount, Currency: co.Currency}, price), nil
		}
		return schemas.PaymentConfirmed{ID: co.EventID, Reference: co.ID, Method: p.Method, Amount: co.Amount,
			Currency: co.Currency, By: co.Provider, At: co.PaidAt}, "", nil
	case schemas.PaymentOffline:
		e, err := a.Store.GetAudit(ctx, p.ID)
		switch {
		case isNotFound(err):
			return p, "no audit record " + p.ID, nil
		case err != nil:
			return p, "", err
		case e.Action != schemas.ActionOfflinePayment || e.CaseID != in.CaseID:
			return p, "the audit record is not an offline payment of this case", nil
		}
		paid := payments.Price{Amount: detailInt(e.Detail["amount"]), Currency: fmt.Sprint(e.Detail["currency"])}
		if paid != price {
			return p, fmt.Sprintf("the recorded %s is not the price due, %s", paid, price), nil
		}
		return schemas.PaymentConfirmed{ID: e.ID, Reference: fmt.Sprint(e.Detail["reference"]), Method: p.Method,
			Amount: paid.Amount, Currency: paid.Currency, By: e.Actor, At: e.At}, "", nil
	}
	return p, "unknown payment method " + p.Method, nil
}

// detailInt reads an integer an audit entry's detail holds, as the store decodes it.
func detailInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int32:
		return int64(n)
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return -1
}
