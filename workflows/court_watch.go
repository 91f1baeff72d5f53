package workflows

import (
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

// courtActs names the court watch's activities.
var courtActs *activities.CourtWatch

// courtListOptions govern reading a page of links from the store: a store access as
// storeOptions says, retried for up to ten minutes while the store is away.
var courtListOptions = func() workflow.ActivityOptions {
	o := storeOptions
	o.ScheduleToCloseTimeout = 10 * time.Minute
	return o
}()

// courtPollOptions govern one poll of a file: the portal's call (portal.DefaultTimeout,
// after waiting its turn at the client's polite rate) and the store's writes. A
// portal that fails is asked again twice, a minute apart at most; a request it refuses
// (a SOAP Client fault, ErrInvalidArgs) is not. A file that still fails waits for the
// next run of the schedule.
var courtPollOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 2 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        5 * time.Second,
		BackoffCoefficient:     4,
		MaximumInterval:        time.Minute,
		MaximumAttempts:        3,
		NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs},
	},
}

// courtPagesPerRun is how many pages of links (activities.CourtWatchPage each) one
// run polls before it continues as new, which keeps its history short.
const courtPagesPerRun = 4

// CourtWatch polls the courts' portal for every linked court file, one file at a time
// (the portal's client keeps its polite rate), and for each piece of news a poll
// recorded in its case: tells the case's owner (court.hearing) and proposes the
// deadline that follows, as a child ProposeDeadline workflow that a person must
// confirm. A file whose poll fails is counted and left for the next run. The schedule
// court-watch starts it; it continues as new after courtPagesPerRun pages, carrying
// where it is and what it counted.
func CourtWatch(ctx workflow.Context, in schemas.CourtWatchInput) (schemas.CourtWatchResult, error) {
	done := in.Done
	lctx := workflow.WithActivityOptions(ctx, courtListOptions)
	pctx := workflow.WithActivityOptions(ctx, courtPollOptions)
	after := in.After
	for range courtPagesPerRun {
		var page schemas.CourtFilePage
		if err := workflow.ExecuteActivity(lctx, courtActs.WatchedCourtFiles, after).Get(ctx, &page); err != nil {
			return done, err
		}
		for _, f := range page.Files {
			after = f.ID
			done.Files++
			var news schemas.CourtNews
			if err := workflow.ExecuteActivity(pctx, courtActs.PollCourtFile, f).Get(ctx, &news); err != nil {
				workflow.GetLogger(ctx).Warn("Court file not polled", "file", f.ID, "case", f.CaseID, "error", err)
				done.Failed++
				continue
			}
			for _, n := range news.Items {
				done.News++
				tellCourtNews(ctx, n)
			}
		}
		if !page.More {
			return done, nil
		}
	}
	return done, workflow.NewContinueAsNewError(ctx, schemas.CourtWatchWorkflow, schemas.CourtWatchInput{After: after, Done: done})
}

// tellCourtNews tells the case's owner of a piece of news and proposes its deadline.
// Neither failure stops the watch: it is logged, and the news stays in the case's
// events.
func tellCourtNews(ctx workflow.Context, n schemas.CourtNewsItem) {
	notify(ctx, n.Notify, "Tell the case's owner of court news "+n.Kind+" of "+n.Day)
	if n.Propose == nil {
		return
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:            schemas.ProposeDeadlineWorkflowID(n.Propose.Args.CaseID, n.Propose.DeadlineID),
		ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
		StaticSummary:         "Propose the deadline that follows court news " + n.Kind + " of " + n.Day,
	})
	var res schemas.ProposedDeadline
	if err := workflow.ExecuteChildWorkflow(cctx, schemas.ProposeDeadlineWorkflow, *n.Propose).Get(ctx, &res); err != nil {
		workflow.GetLogger(ctx).Warn("Deadline not proposed", "deadline", n.Propose.DeadlineID, "error", err)
	}
}
