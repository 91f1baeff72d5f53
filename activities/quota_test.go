package activities

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

func TestCheckQuota(t *testing.T) {
	ctx := context.Background()
	a := &Quota{Subscriptions: st}
	org := fmt.Sprint("quota-org-", time.Now().UnixNano())
	if _, err := st.PutSubscription(ctx, store.Subscription{ID: store.SubscriptionID("", org), Plan: "firm",
		Credits: map[string]int{"1": 2, "2": 0}}); err != nil {
		t.Fatal(err)
	}
	orgID := func(s string) *string { return &s }
	for _, c := range []struct {
		args       schemas.CheckQuotaArgs
		has        bool
		errMessage string
	}{
		{schemas.CheckQuotaArgs{UserID: "u", OrganizationID: orgID(org), Tier: 1}, true, ""},
		{schemas.CheckQuotaArgs{UserID: "u", OrganizationID: orgID(org), Tier: 2}, false, ""},
		{schemas.CheckQuotaArgs{UserID: "u", OrganizationID: orgID(org), Tier: 3}, false, ""},
		{schemas.CheckQuotaArgs{UserID: "u", OrganizationID: orgID(org), Tier: 4}, false, schemas.QuotaInvalidTier},
		{schemas.CheckQuotaArgs{UserID: "nobody-" + org, Tier: 1}, false, schemas.QuotaSubscriptionNotFound},
		{schemas.CheckQuotaArgs{Tier: 1}, false, schemas.QuotaUserNotFound},
	} {
		got, err := a.CheckQuota(ctx, c.args)
		if err != nil {
			t.Fatal(err)
		}
		if c.errMessage != "" {
			if got.Status != schemas.ResultError || got.ErrorMessage != c.errMessage {
				t.Errorf("%+v: %+v, want error %q", c.args, got, c.errMessage)
			}
			continue
		}
		if got.Status != schemas.ResultSuccess || got.HasQuota == nil || *got.HasQuota != c.has {
			t.Errorf("tier %d: %+v, want has_quota %v", c.args.Tier, got, c.has)
		}
	}
}
