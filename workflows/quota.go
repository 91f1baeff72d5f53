package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// Quota is the quota phase: check_quota for the case's organization, or its user, then
// one credit of the tier used for the case. A subscription that cannot cover the case,
// for any reason check_quota gives, means the case must be paid for.
func Quota(ctx workflow.Context, in schemas.QuotaInput) (schemas.QuotaResult, error) {
	opts := toolOptions(schemas.ToolCheckQuota)
	opts.Summary = fmt.Sprintf("check_quota for tier %d", in.Tier)
	actx := workflow.WithActivityOptions(ctx, opts)
	args := schemas.CheckQuotaArgs{UserID: in.UserID, Tier: in.Tier}
	if in.OrgID != "" {
		args.OrganizationID = &in.OrgID
	}
	var res schemas.CheckQuotaResult
	if err := workflow.ExecuteActivity(actx, quotaActs.CheckQuota, args).Get(ctx, &res); err != nil {
		return schemas.QuotaResult{}, err
	}
	if res.Status != schemas.ResultSuccess {
		return schemas.QuotaResult{Reason: res.ErrorMessage}, nil
	}
	if res.HasQuota == nil || !*res.HasQuota {
		return schemas.QuotaResult{}, nil
	}
	var used bool
	sctx := workflow.WithActivityOptions(ctx, storeOptions)
	err := workflow.ExecuteActivity(sctx, quotaActs.UseCredit, schemas.UseCredit(in)).Get(ctx, &used)
	return schemas.QuotaResult{HasQuota: used}, err
}
