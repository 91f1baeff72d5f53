package workflows

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/schemas"
)

// TestRefreshLaw reads the acts one at a time with a pause between, goes on past an
// act that fails, and reads no more than maxActsPerRefresh.
func TestRefreshLaw(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	ids := []string{"ro/legea-287-2009", "ro/legea-134-2010"}
	for i := range maxActsPerRefresh + 5 {
		ids = append(ids, "ro/lege-"+string(rune('a'+i)))
	}
	env.OnActivity(lawActs.RefreshableActs, mock.Anything).Return(ids, nil)
	var calls []time.Time
	env.OnActivity(lawActs.RefreshAct, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RefreshAct) (schemas.RefreshedAct, error) {
			calls = append(calls, env.Now())
			if in.ActID == "ro/legea-134-2010" {
				return schemas.RefreshedAct{}, temporal.NewNonRetryableApplicationError("not found", schemas.ErrSearchFailed, nil)
			}
			return schemas.RefreshedAct{ActID: in.ActID, Articles: 3}, nil
		})
	env.ExecuteWorkflow(RefreshLaw)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res schemas.RefreshLawResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if len(calls) != maxActsPerRefresh || len(res.Refreshed) != maxActsPerRefresh-1 || len(res.Failed) != 1 || res.Failed[0] != "ro/legea-134-2010" {
		t.Errorf("%d reads, %d refreshed, failed %v", len(calls), len(res.Refreshed), res.Failed)
	}
	for i := 1; i < len(calls); i++ {
		if gap := calls[i].Sub(calls[i-1]); gap < refreshPause {
			t.Errorf("read %d came %s after the one before, less than %s", i+1, gap, refreshPause)
		}
	}
}
