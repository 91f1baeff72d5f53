package workflows

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// TestCourtWatchTellsAndProposes: every linked file is polled; each piece of news is
// notified, and the news that proposes a deadline starts ProposeDeadline; a file
// whose poll fails is counted and the others still polled.
func TestCourtWatchTellsAndProposes(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(ProposeDeadline, workflow.RegisterOptions{Name: schemas.ProposeDeadlineWorkflow})
	var told []string
	env.OnActivity(notifyActs.Notify, mock.Anything, mock.Anything).Return(func(_ context.Context, n schemas.Notification) (schemas.NotificationResult, error) {
		told = append(told, n.Key)
		return schemas.NotificationResult{Sent: []string{"app"}}, nil
	})
	files := []schemas.CourtFileRef{{ID: "cf-1", CaseID: "c1"}, {ID: "cf-2", CaseID: "c2"}, {ID: "cf-3", CaseID: "c1"}}
	env.OnActivity(courtActs.WatchedCourtFiles, mock.Anything, "").Return(schemas.CourtFilePage{Files: files}, nil)
	hearing := schemas.CourtNewsItem{Kind: schemas.CourtNewHearing, Day: "2031-03-05",
		Notify: schemas.Notification{Key: "court:cf-1:hearing", Kind: schemas.NotifyCourtHearing, Owner: "user:u1", CaseID: "c1"},
		Propose: &schemas.ProposeDeadline{DeadlineID: "d-1", ProposedBy: schemas.ProposedByCourt,
			Args: schemas.ProposeDeadlineArgs{CaseID: "c1", Title: "Termen", Due: "2031-03-05", Jurisdiction: "ro"}}}
	result := schemas.CourtNewsItem{Kind: schemas.CourtResult, Day: "2030-01-08",
		Notify: schemas.Notification{Key: "court:cf-3:result", Kind: schemas.NotifyCourtHearing, Owner: "user:u1", CaseID: "c1"}}
	env.OnActivity(courtActs.PollCourtFile, mock.Anything, files[0]).Return(schemas.CourtNews{Items: []schemas.CourtNewsItem{hearing}}, nil)
	env.OnActivity(courtActs.PollCourtFile, mock.Anything, files[1]).Return(schemas.CourtNews{}, errors.New("portal: the service answered HTTP 503")).Times(3)
	env.OnActivity(courtActs.PollCourtFile, mock.Anything, files[2]).Return(schemas.CourtNews{Items: []schemas.CourtNewsItem{result}}, nil)
	var proposed []schemas.ProposeDeadline
	env.OnActivity(deadlineActs.ProposeDeadline, mock.Anything, mock.Anything).Return(func(_ context.Context, p schemas.ProposeDeadline) (schemas.Proposal, error) {
		proposed = append(proposed, p)
		return schemas.Proposal{Result: schemas.ProposedDeadline{Status: schemas.ResultSuccess, DeadlineID: p.DeadlineID}}, nil
	})
	env.ExecuteWorkflow(CourtWatch, schemas.CourtWatchInput{})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var got schemas.CourtWatchResult
	if err := env.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if got != (schemas.CourtWatchResult{Files: 3, News: 2, Failed: 1}) {
		t.Errorf("result = %+v, want 3 files, 2 news, 1 failed", got)
	}
	if len(told) != 2 || told[0] != "court:cf-1:hearing" || told[1] != "court:cf-3:result" {
		t.Errorf("notified %v, want each piece of news once, in order", told)
	}
	if len(proposed) != 1 || proposed[0].DeadlineID != "d-1" || proposed[0].ProposedBy != schemas.ProposedByCourt {
		t.Errorf("proposed %+v, want the hearing's deadline only", proposed)
	}
	env.AssertExpectations(t)
}

// TestCourtWatchContinuesAsNew: a run that has more pages than courtPagesPerRun
// continues as new after the last file it polled, carrying its counts.
func TestCourtWatchContinuesAsNew(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(courtActs.WatchedCourtFiles, mock.Anything, mock.Anything).Return(func(_ context.Context, after string) (schemas.CourtFilePage, error) {
		return schemas.CourtFilePage{Files: []schemas.CourtFileRef{{ID: after + "x", CaseID: "c"}}, More: true}, nil
	})
	env.OnActivity(courtActs.PollCourtFile, mock.Anything, mock.Anything).Return(schemas.CourtNews{}, nil)
	env.ExecuteWorkflow(CourtWatch, schemas.CourtWatchInput{After: "a", Done: schemas.CourtWatchResult{Files: 10}})
	var cont *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &cont) {
		t.Fatalf("workflow ended with %v, want continue-as-new", err)
	}
	var next schemas.CourtWatchInput
	if err := converter.GetDefaultDataConverter().FromPayloads(cont.Input, &next); err != nil {
		t.Fatal(err)
	}
	if next.After != "axxxx" || next.Done.Files != 10+courtPagesPerRun {
		t.Errorf("continued with %+v, want after axxxx and %d files", next, 10+courtPagesPerRun)
	}
}
