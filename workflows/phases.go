package workflows

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// decideNow is the line Tiering adds to the description once its one question has been
// asked: the model must choose a tier.
const decideNow = "Decide now"

// tieringAttempts bounds the model calls of one tiering: one, and one correction.
const tieringAttempts = 2

// Tiering is the tiering phase: the model classifies the case as tier 1, 2 or 3 against
// the tier definitions, with a short justification, or asks one clarifying question.
// An answer it cannot read gets one correction; after that, a case that must be decided
// is tier 1 (the client is never charged a higher tier on a guess), and one that may
// still ask gets a clarifying question.
func Tiering(ctx workflow.Context, in schemas.TieringInput) (schemas.TieringResult, error) {
	msg := in.Description
	if in.MustDecide {
		msg += "\n\n" + decideNow
	}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: msg}}
	opts := modelOptions
	opts.Summary = "Classify the case's tier"
	actx := workflow.WithActivityOptions(ctx, opts)
	for range tieringAttempts {
		var resp schemas.ModelResponse
		err := workflow.ExecuteActivity(actx, modelActs.CallModel, schemas.ModelRequest{
			Role: schemas.RoleTiering, CaseID: in.CaseID, TurnNo: 1, Language: in.Language, Messages: msgs,
		}).Get(ctx, &resp)
		if err != nil {
			return schemas.TieringResult{}, err
		}
		if res, ok := parseTiering(resp.Content); ok && !(in.MustDecide && res.Tier == 0) {
			return res, nil
		}
		msgs = append(msgs, schemas.ChatMessage{Role: schemas.MsgAssistant, Content: resp.Content},
			schemas.ChatMessage{Role: schemas.MsgUser, Content: `Answer with one JSON object, {"tier": 1, 2 or 3, "justification": "..."}` +
				map[bool]string{true: ".", false: `, or {"question": "..."}.`}[in.MustDecide]})
	}
	if in.MustDecide {
		return schemas.TieringResult{Tier: schemas.MinTier, Justification: "The model gave no tier; the lowest applies."}, nil
	}
	return schemas.TieringResult{Question: lifecycleWordsFor(in.Language).tierQuestion}, nil
}

// parseTiering reads the tiering model's JSON answer: a tier from 1 to 3 with its
// justification, or a question.
func parseTiering(content string) (schemas.TieringResult, bool) {
	var res schemas.TieringResult
	if json.Unmarshal([]byte(trimFence(content)), &res) != nil {
		return res, false
	}
	res.Question, res.Justification = strings.TrimSpace(res.Question), strings.TrimSpace(res.Justification)
	switch {
	case res.Tier >= schemas.MinTier && res.Tier <= schemas.MaxTier:
		res.Question = ""
		return res, true
	case res.Tier == 0 && res.Question != "":
		return schemas.TieringResult{Question: res.Question}, true
	}
	return res, false
}

// Quota is the quota phase: check_quota for the case's organization, or its user, then
// one credit of the tier used for the case. A subscription that cannot cover the case,
// for any reason check_quota gives, means the case must be paid for.
func Quota(ctx workflow.Context, in schemas.QuotaInput) (schemas.QuotaResult, error) {
	tool, _ := tools.Get(schemas.ToolCheckQuota)
	opts := tool.Policy.Options()
	opts.Summary = fmt.Sprintf("check_quota for tier %d", in.Tier)
	actx := workflow.WithActivityOptions(ctx, opts)
	args := schemas.CheckQuotaArgs{UserID: in.UserID, Tier: in.Tier}
	if in.OrgID != "" {
		args.OrganizationID = &in.OrgID
	}
	var res schemas.CheckQuotaResult
	if err := workflow.ExecuteActivity(actx, lifecycleActs.CheckQuota, args).Get(ctx, &res); err != nil {
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
	err := workflow.ExecuteActivity(sctx, lifecycleActs.UseCredit, schemas.UseCredit(in)).Get(ctx, &used)
	return schemas.QuotaResult{HasQuota: used}, err
}

// Draft is generate_draft_pdf: it renders a Markdown draft with the parties' data to a
// PDF in the blob store, and records the revision in case_details.draft_status. Only the
// RenderDraft activity sees the parties' data; the workflow sees paths and digests.
// A draft at fault (a placeholder naming no party of the case, a revision taken by other
// content) is the tool's error answer, for the model to correct.
func Draft(ctx workflow.Context, args schemas.GenerateDraftPDFArgs) (schemas.DraftResult, error) {
	tool, _ := tools.Get(schemas.ToolGenerateDraftPDF)
	opts := tool.Policy.Options()
	opts.Summary = "Render the draft PDF"
	var rendered schemas.RenderDraftResult
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), draftActs.RenderDraft, args).Get(ctx, &rendered); err != nil {
		return schemas.DraftResult{}, err
	}
	if rendered.ErrorMessage != "" {
		return schemas.DraftResult{Status: schemas.ResultError, ErrorMessage: rendered.ErrorMessage}, nil
	}
	sopts := storeOptions
	sopts.Summary = "Record the draft in case_details.draft_status"
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, sopts), draftActs.RecordDraft, schemas.RecordDraft{
		CaseID: args.CaseID, Draft: rendered.Draft,
	}).Get(ctx, nil)
	if err != nil {
		return schemas.DraftResult{}, err
	}
	return schemas.DraftResult{Status: schemas.ResultSuccess, PDFPath: rendered.Draft.Path, DraftID: rendered.Draft.DraftID}, nil
}

// SupportTicket is create_support_ticket: it stores the ticket, once per workflow ID,
// and pauses the case for support.
func SupportTicket(ctx workflow.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
	tool, _ := tools.Get(schemas.ToolCreateSupportTicket)
	opts := tool.Policy.Options()
	opts.Summary = "Store support ticket " + in.TicketID
	var res schemas.TicketResult
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), lifecycleActs.CreateSupportTicket, in).Get(ctx, &res)
	return res, err
}
