package activities

import (
	"context"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Payments records the payments of cases that no subscription covered.
type Payments struct {
	Cases store.Cases
}

// RecordPayment stores a case's payment and returns the one stored.
func (a *Payments) RecordPayment(ctx context.Context, in schemas.RecordPayment) (schemas.PaymentConfirmed, error) {
	p, err := a.Cases.SetPayment(ctx, in.CaseID, store.Payment(in.Payment))
	return schemas.PaymentConfirmed(p), permanent(err)
}
