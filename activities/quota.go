package activities

import (
	"context"
	"errors"
	"strconv"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Quota are the activities of the quota phase: check_quota and using a credit.
type Quota struct {
	Subscriptions store.Subscriptions
}

// CheckQuota is check_quota: whether the organization's subscription, or the user's
// when the case has no organization, has a credit left for the tier. A missing
// subscription or an invalid tier is an answer, in seed 003's words; a store error is
// retried.
func (a *Quota) CheckQuota(ctx context.Context, args schemas.CheckQuotaArgs) (schemas.CheckQuotaResult, error) {
	fail := func(msg string) (schemas.CheckQuotaResult, error) {
		return schemas.CheckQuotaResult{Status: schemas.ResultError, ErrorMessage: msg}, nil
	}
	if args.Tier < schemas.MinTier || args.Tier > schemas.MaxTier {
		return fail(schemas.QuotaInvalidTier)
	}
	if args.UserID == "" {
		return fail(schemas.QuotaUserNotFound)
	}
	org := ""
	if args.OrganizationID != nil {
		org = *args.OrganizationID
	}
	sub, err := a.Subscriptions.GetSubscription(ctx, store.SubscriptionID(args.UserID, org))
	if errors.Is(err, store.ErrNotFound) {
		return fail(schemas.QuotaSubscriptionNotFound)
	}
	if err != nil {
		return schemas.CheckQuotaResult{}, err
	}
	has := sub.Credits[strconv.Itoa(args.Tier)] > 0
	return schemas.CheckQuotaResult{Status: schemas.ResultSuccess, HasQuota: &has}, nil
}

// UseCredit uses one credit of the case's tier, once per case, and reports whether one
// was left.
func (a *Quota) UseCredit(ctx context.Context, in schemas.UseCredit) (bool, error) {
	used, err := a.Subscriptions.UseCredit(ctx, store.SubscriptionID(in.UserID, in.OrgID), in.Tier, in.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return used, err
}
