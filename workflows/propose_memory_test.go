package workflows

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

func TestProposeMemory(t *testing.T) {
	in := schemas.ProposeMemory{CaseID: "c1", OrgID: "firm", UserID: "ana", Language: "ro"}
	for _, tc := range []struct {
		name     string
		proposed []string
		askErr   error
		stored   int // calls of StoreMemoryFacts
		want     int
	}{
		{name: "stores what the model proposed", proposed: []string{"Lives in Cluj.", "Runs a bakery."}, stored: 1, want: 2},
		{name: "nothing proposed, nothing stored", proposed: []string{}},
		{name: "a model that fails proposes nothing",
			askErr: temporal.NewNonRetryableApplicationError("refused", schemas.ErrModelRejected, errors.New("400"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.RegisterActivity(&activities.MemoryProposals{})
			env.OnActivity(memoryActs.AskMemoryFacts, mock.Anything, in).Return(schemas.ProposedFacts{Facts: tc.proposed}, tc.askErr)
			var got schemas.StoreProposedFacts
			if tc.stored > 0 {
				env.OnActivity(memoryActs.StoreMemoryFacts, mock.Anything, mock.Anything).Return(
					func(_ context.Context, s schemas.StoreProposedFacts) (schemas.ProposeMemoryResult, error) {
						got = s
						return schemas.ProposeMemoryResult{Proposed: len(s.Facts)}, nil
					}).Times(tc.stored)
			}
			env.ExecuteWorkflow(ProposeMemory, in)
			var res schemas.ProposeMemoryResult
			if err := env.GetWorkflowResult(&res); err != nil || res.Proposed != tc.want {
				t.Fatalf("ProposeMemory = %+v, %v; want %d proposed", res, err, tc.want)
			}
			if tc.stored > 0 && (got.ProposeMemory != in || len(got.Facts) != len(tc.proposed)) {
				t.Errorf("stored %+v, want the case's %d facts", got, len(tc.proposed))
			}
			env.AssertExpectations(t)
		})
	}
}
