package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

// lawActs names the activities that keep current texts of acts.
var lawActs *activities.CurrentLaw

// Bounds of one RefreshLaw run, which reads a public service: politely, an act at a
// time with a pause between, and at most maxActsPerRefresh acts.
const (
	maxActsPerRefresh = 20
	refreshPause      = 30 * time.Second
)

// refreshActOptions govern one act's read at the Portal Legislativ: a whole code can
// take a minute to come; a gateway error or a timeout is tried twice more, a minute
// apart; an act the service does not find is not.
var refreshActOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 3 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Minute,
		BackoffCoefficient:     1,
		MaximumAttempts:        3,
		NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs, schemas.ErrSearchFailed},
	},
}

// listActsOptions govern reading the corpus for the acts to refresh.
var listActsOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 30 * time.Second,
	RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
}

// RefreshLaw reads the current text of the Romanian acts of the corpus that the Portal
// Legislativ finds by number (its codes: activities.CurrentLaw.RefreshableActs) and
// keeps it in the store, one act at a time with refreshPause between, at most
// maxActsPerRefresh a run. These are every act whose current text the research tools
// and the citation check can read, since they read it by the corpus's doc_ids: an act
// a case cites outside the corpus has none to update. An act that cannot be read keeps
// its earlier text, or the corpus's, and is named in the result.
func RefreshLaw(ctx workflow.Context) (schemas.RefreshLawResult, error) {
	out := schemas.RefreshLawResult{Refreshed: []schemas.RefreshedAct{}, Failed: []string{}}
	var ids []string
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, listActsOptions), lawActs.RefreshableActs).Get(ctx, &ids); err != nil {
		return out, err
	}
	actx := workflow.WithActivityOptions(ctx, refreshActOptions)
	for i, id := range ids[:min(len(ids), maxActsPerRefresh)] {
		if i > 0 {
			if err := workflow.Sleep(ctx, refreshPause); err != nil {
				return out, err
			}
		}
		var got schemas.RefreshedAct
		if err := workflow.ExecuteActivity(actx, lawActs.RefreshAct, schemas.RefreshAct{ActID: id}).Get(ctx, &got); err != nil {
			workflow.GetLogger(ctx).Warn("Current text not refreshed", "act", id, "error", err)
			out.Failed = append(out.Failed, id)
			continue
		}
		out.Refreshed = append(out.Refreshed, got)
	}
	return out, nil
}
