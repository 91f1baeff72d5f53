package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// extractOptions govern reading a document's text: the activity gives up on a read
// after 45 minutes itself (activities.maxReadTime), within the hour; the read
// heartbeats, so a worker lost mid-read is noticed in half a minute and the read run
// again elsewhere, three times at most. A document the reader refuses is its answer,
// not an error.
var extractOptions = workflow.ActivityOptions{
	StartToCloseTimeout: time.Hour,
	HeartbeatTimeout:    30 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{InitialInterval: 5 * time.Second, BackoffCoefficient: 2, MaximumAttempts: 3,
		NonRetryableErrorTypes: []string{schemas.ErrInvalidArgs}},
	Summary: "Read the document's text",
}

// readerFailed is the reason recorded for a document whose reading failed through
// every retry for reasons of Lexflow's own.
const readerFailed = "Lexflow's document reader failed on it; try again later, or ask support"

// Document reads a client's upload (schemas.DocumentWorkflowID): its text, stored
// sealed beside the file; a summary by the assistant model of the text pseudonymized;
// and the record of both in case_details.uploads, with document.read or
// document.failed and a notice. Its history holds IDs, page counts and the
// pseudonymized summary, never the document's text or its name. Deleting the document
// terminates the workflow; one its deletion missed finds the document gone at its next
// step and records nothing.
func Document(ctx workflow.Context, in schemas.DocumentInput) (schemas.RecordDocument, error) {
	rec := schemas.RecordDocument{DocumentInput: in}
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, extractOptions), docActs.ExtractDocument, in).Get(ctx, &rec.DocumentRead)
	if err != nil {
		workflow.GetLogger(ctx).Warn("Document not read", "error", err)
		rec.DocumentRead = schemas.DocumentRead{Reason: readerFailed}
	}
	if rec.Reason == "" {
		opts := modelOptions
		opts.Summary = "Summarize the document"
		var sum schemas.DocumentSummary
		// A document without a summary is still read: the model reads its pages.
		if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), docActs.SummarizeDocument, in).Get(ctx, &sum); err != nil {
			workflow.GetLogger(ctx).Warn("Document not summarized", "error", err)
		}
		rec.Summary = sum.Summary
	}
	sopts := storeOptions
	sopts.Summary = "Record the document in case_details.uploads"
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, sopts), docActs.RecordDocument, rec).Get(ctx, nil); err != nil {
		return schemas.RecordDocument{}, err
	}
	return rec, nil
}
