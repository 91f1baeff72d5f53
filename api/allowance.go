package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// unpaid reports whether a case is yet to be paid (schemas.BeforePayment).
func unpaid(cs store.Case) bool { return schemas.BeforePayment(cs.Phase, cs.Payment != nil) }

// checkUnpaidUpload refuses, with 402, a document for a case before payment once
// schemas.UnpaidDocuments documents were uploaded to it or schemas.UnpaidPages pages
// read of them, deleted and failed ones included (schemas.DocumentsRead).
func checkUnpaidUpload(cs store.Case) error {
	if !unpaid(cs) {
		return nil
	}
	docs, pages := schemas.DocumentsRead(cs.Details, "")
	if docs >= schemas.UnpaidDocuments || pages >= schemas.UnpaidPages {
		return problemf(errPaymentRequired, fmt.Sprintf("before a case is paid, Lexflow reads %d of its documents and %d pages of them; "+
			"this one had %d documents (%d pages read), deleted ones included: pay for the case (POST /v1/cases/%s/checkout) to upload more",
			schemas.UnpaidDocuments, schemas.UnpaidPages, docs, pages, cs.ID))
	}
	return nil
}

// paidCasesSeen is how many of a user's latest cases checkQueryAllowance looks at for
// one that is paid.
const paidCasesSeen = 50

// checkQueryAllowance refuses, with 402, a query of a tenant that has paid for nothing
// once its queries used schemas.UnpaidQueryTokens today (UTC). A tenant has paid when
// its subscription has a credit left or covered a case, or one of the caller's latest
// cases is paid.
func (h *handlers) checkQueryAllowance(ctx context.Context, who auth.Identity) error {
	tenant := schemas.TenantKey(who.Org, who.Subject)
	sub, err := h.Store.GetSubscription(ctx, tenant)
	switch {
	case err == nil && len(sub.Cases) > 0:
		return nil
	case err == nil:
		for _, n := range sub.Credits {
			if n > 0 {
				return nil
			}
		}
	case !errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%w: read the subscription: %w", errUnavailable, err)
	}
	cases, err := h.Store.ListCases(ctx, who.Org, who.Subject, "", paidCasesSeen)
	if err != nil {
		return fmt.Errorf("%w: read the cases: %w", errUnavailable, err)
	}
	for _, cs := range cases {
		if cs.Payment != nil {
			return nil
		}
	}
	now := h.now().UTC()
	used, err := h.Store.TokensUsed(ctx, tenant, schemas.QueryUsage, now.Format(time.DateOnly))
	if err != nil {
		return fmt.Errorf("%w: read the day's token use: %w", errUnavailable, err)
	}
	if used.Case >= schemas.UnpaidQueryTokens {
		return problemf(errPaymentRequired, fmt.Sprintf("before anything is paid, POST /v1/query answers %d model tokens a day (UTC), used up today: "+
			"pay for a case, or take a subscription, to ask more", schemas.UnpaidQueryTokens))
	}
	return nil
}
