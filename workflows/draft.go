package workflows

import (
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// Draft is generate_draft_pdf: it renders a Markdown draft with the parties' data to a
// PDF in the blob store, and records the revision in case_details.draft_status. Only the
// RenderDraft activity sees the parties' data; the workflow sees paths and digests.
// A draft at fault (a placeholder naming no party of the case, a revision taken by other
// content) is the tool's error answer, for the model to correct. Its citations are
// checked first: a draft citing what the corpus disproves, misquotes or repealed is
// still rendered, with a last page listing those citations, and the answer names them
// for the model to tell the client. A draft the check fails on is rendered unchecked.
// A failure names its step (stepFailed): rendering, the upload, the store's update.
func Draft(ctx workflow.Context, args schemas.GenerateDraftPDFArgs) (schemas.DraftResult, error) {
	in := schemas.RenderDraftInput{GenerateDraftPDFArgs: args}
	copts := citationOptions
	copts.Summary = "Check the draft's citations"
	var checked schemas.CitationReport
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, copts), researchActs.CheckText,
		schemas.CitationCheck{Text: args.MarkdownContent}).Get(ctx, &checked)
	// The check advises; a draft it cannot check (too long, the corpus unreadable
	// through the retries) is rendered without it.
	if err != nil {
		workflow.GetLogger(ctx).Warn("Draft rendered without its citation check", "error", err)
	}
	in.Citations = checked.Citations
	opts := toolOptions(schemas.ToolGenerateDraftPDF)
	opts.Summary = "Render the draft PDF"
	var rendered schemas.RenderDraftResult
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), draftActs.RenderDraft, in).Get(ctx, &rendered); err != nil {
		return schemas.DraftResult{}, stepFailed(schemas.FailedDraftRender, err)
	}
	if rendered.ErrorMessage != "" {
		return schemas.DraftResult{Status: schemas.ResultError, ErrorMessage: rendered.ErrorMessage}, nil
	}
	sopts := storeOptions
	sopts.Summary = "Record the draft in case_details.draft_status"
	err = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, sopts), draftActs.RecordDraft, schemas.RecordDraft{
		CaseID: args.CaseID, Draft: rendered.Draft,
	}).Get(ctx, nil)
	if err != nil {
		return schemas.DraftResult{}, stepFailed(schemas.FailedStoreUpdate, err)
	}
	return schemas.DraftResult{Status: schemas.ResultSuccess, PDFPath: rendered.Draft.Path, DraftID: rendered.Draft.DraftID,
		CitationsToCheck: rendered.Draft.CitationsToCheck()}, nil
}

// stepFailed is an activity's failure as the ladder shows it to the model and the
// reasoner, naming the step that failed as seed 003's texts do ("Cloud Storage upload
// failed", "Firestore update failed"): the activity's own reason when it names its
// step already (schemas.FailedSteps), else step before the reason (a timeout says no
// more than the activity that ran out of time).
func stepFailed(step string, err error) error {
	reason := failureReason(err)
	if schemas.NamesFailedStep(reason) {
		return err
	}
	// No cause: a timeout in the chain would be read first, as "timed out" alone.
	return temporal.NewApplicationError(step+": "+reason, schemas.ErrStepFailed)
}
