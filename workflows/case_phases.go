package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// phase is one step of a case's way to active: what the case waits on once it enters
// the phase, and, when messages are refused in it, why.
type phase struct {
	name      string
	waitingOn string
	refusal   func(s schemas.CaseState) error
}

// phases are a case's phases, in the order a case goes through them (classify and
// confirmPayment move it on). Tiering classifies the case (waiting on the client while
// its one clarifying question is out); quota uses a credit of the subscription; a case
// no credit covers awaits payment and refuses messages until the payment-confirmed
// signal; then the case is active until it closes.
var phases = []phase{
	{name: schemas.PhaseTiering, waitingOn: schemas.WaitingOnAgent},
	{name: schemas.PhaseQuota, waitingOn: schemas.WaitingOnAgent},
	{name: schemas.PhaseAwaitingPayment, waitingOn: schemas.WaitingOnPayment, refusal: func(s schemas.CaseState) error {
		return temporal.NewApplicationError(fmt.Sprintf("the case (tier %d) is awaiting payment", s.Tier), schemas.ErrPaymentRequired)
	}},
	{name: schemas.PhaseActive},
}

// phaseNamed returns the phase of that name; a name not in the table is the last phase.
func phaseNamed(name string) phase {
	for _, p := range phases {
		if p.name == name {
			return p
		}
	}
	return phases[len(phases)-1]
}

// enter moves the case into a phase, in the store and its search attributes, and to
// what the phase waits on. It upserts WaitingOn only when that changes: recorded
// histories entered quota while already waiting on the agent, with no upsert, and
// must replay command for command.
func (w *caseWorkflow) enter(ctx workflow.Context, name string) error {
	if err := w.setPhase(ctx, name); err != nil {
		return err
	}
	if p := phaseNamed(name); w.state.WaitingOn != p.waitingOn {
		return w.waitOn(ctx, p.waitingOn)
	}
	return nil
}

// classify runs the Tiering child on what the client said, then, once a tier is
// decided, the Quota child, and returns what the client is told: the question, or the
// tier with the quota's outcome in seed 003's words. When the model-token budget ran
// out first, the case waits on it, and classifies the same text once it resumes. When
// tiering could read no tier, the reply says support reviews it, and the error is
// ErrTierReview: the caller stalls the case on its tiering (see isTierReview).
func (w *caseWorkflow) classify(ctx workflow.Context, description string) (string, error) {
	lw := caseWordsFor(w.in.Language)
	if err := w.waitOn(ctx, schemas.WaitingOnAgent); err != nil {
		return "", err
	}
	attempt := 1
	if w.state.Asked {
		attempt = 2
	}
	// A tier decided before the case stalled (see stallOr) stands: classifying again
	// goes on from its record, and the client is never classified twice.
	tier := schemas.TieringResult{Tier: w.state.Tier, Justification: w.state.Justification}
	if tier.Tier == 0 {
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID: schemas.TieringWorkflowID(w.state.CaseID, attempt), StaticSummary: "Tiering",
		})
		err := workflow.ExecuteChildWorkflow(cctx, Tiering, schemas.TieringInput{
			CaseID: w.state.CaseID, Language: w.in.Language, Description: description, MustDecide: w.state.Asked,
		}).Get(ctx, &tier)
		if err != nil {
			return "", err
		}
	}
	if tier.Budget != nil {
		return budgetReply(w.in.Language, *tier.Budget), w.pauseForBudget(ctx, *tier.Budget, description)
	}
	if tier.Review != "" {
		return lw.tierReview, temporal.NewNonRetryableApplicationError("support reviews the tier: "+tier.Review, schemas.ErrTierReview, nil)
	}
	if tier.Tier == 0 {
		w.state.Asked, w.state.Question = true, tier.Question
		return tier.Question, w.waitOn(ctx, schemas.WaitingOnUser)
	}
	w.state.Tier, w.state.Justification, w.state.Question = tier.Tier, tier.Justification, ""
	if err := workflow.UpsertTypedSearchAttributes(ctx, schemas.SATier.ValueSet(int64(tier.Tier))); err != nil {
		return "", err
	}
	opts := storeOptions
	opts.Summary = fmt.Sprintf("Record tier %d", tier.Tier)
	var recorded schemas.StatusResult
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), casesActs.UpdateCaseDetails, schemas.UpdateCaseDetailsArgs{
		CaseID: w.state.CaseID, System: true,
		Updates: map[string]any{"tier": map[string]any{"level": tier.Tier, "justification": tier.Justification}},
	}).Get(ctx, &recorded)
	if err != nil {
		return "", err
	}
	if recorded.Status != schemas.ResultSuccess {
		return "", fmt.Errorf("record tier %d: %s", tier.Tier, recorded.ErrorMessage)
	}
	if err := w.enter(ctx, schemas.PhaseQuota); err != nil {
		return "", err
	}
	var quota schemas.QuotaResult
	qctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID: schemas.QuotaWorkflowID(w.state.CaseID), StaticSummary: fmt.Sprintf("Quota for tier %d", tier.Tier),
	})
	err = workflow.ExecuteChildWorkflow(qctx, Quota, schemas.QuotaInput{
		CaseID: w.state.CaseID, UserID: w.state.UserID, OrgID: w.in.OrgID, Tier: tier.Tier,
	}).Get(ctx, &quota)
	if err != nil {
		return "", err
	}
	head := fmt.Sprintf(lw.tier, tier.Tier, tier.Justification) + "\n\n"
	if !quota.HasQuota {
		return head + fmt.Sprintf(lw.noQuota, tier.Tier), w.enter(ctx, schemas.PhaseAwaitingPayment)
	}
	return head + fmt.Sprintf(lw.quotaOK, tier.Tier), w.enter(ctx, schemas.PhaseActive)
}

// answerTiering is a turn of the tiering phase: the client's answer to tiering's
// question, classified with the description.
func (w *caseWorkflow) answerTiering(ctx workflow.Context, req schemas.SendMessageRequest) (schemas.TurnResult, error) {
	message := req.Message
	w.state.Turns++
	n := w.state.Turns
	id := schemas.TurnWorkflowID(w.state.CaseID, n)
	if workflow.GetVersion(ctx, tieringKeys, workflow.DefaultVersion, 1) == 1 {
		w.rememberKey(ctx, req.IdempotencyKey, id)
	}
	sctx := workflow.WithActivityOptions(ctx, storeOptions)
	err := workflow.ExecuteActivity(sctx, transcriptActs.RecordUserMessage, schemas.RecordUserMessage{
		CaseID: w.state.CaseID, UserID: w.state.UserID, TurnID: id, TurnNo: n, Message: message, At: workflow.Now(ctx),
		RequestID: req.RequestID,
	}).Get(ctx, nil)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	text := w.in.Description + "\n\n" + message
	reply, err := w.classify(ctx, text)
	if isTierReview(err) {
		err = w.stallOr(ctx, err, schemas.Stall{Step: schemas.StepTiering, Tiering: text})
	}
	if err != nil {
		return schemas.TurnResult{}, err
	}
	res := schemas.TurnResult{TurnID: id, Reply: reply, ToolsUsed: []schemas.ToolUse{}, Sources: []schemas.Source{},
		Citations: []schemas.Citation{}, Tier: w.state.Tier}
	err = workflow.ExecuteActivity(sctx, transcriptActs.RecordTurn, schemas.RecordTurn{
		CaseID: w.state.CaseID, UserID: w.state.UserID, TurnNo: n, Result: res, At: workflow.Now(ctx),
	}).Get(ctx, nil)
	res.Phase, res.Status = w.state.Phase, w.state.Status
	return res, err
}

// tieringKeys is the change that has an answer to tiering's question remember its
// idempotency key, as a turn does: a repeat answers that turn, and the API refuses the
// key with another message.
const tieringKeys = "tiering-keys"

// isTierReview reports whether err is classify's call for support to review the tier:
// the client is told (classify's reply), and the case stalls on its tiering, which
// support's retry runs again.
func isTierReview(err error) bool {
	var appErr *temporal.ApplicationError
	return errors.As(err, &appErr) && appErr.Type() == schemas.ErrTierReview
}
