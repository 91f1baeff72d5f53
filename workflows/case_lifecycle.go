package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// classify runs the Tiering child on what the client said, then, once a tier is
// decided, the Quota child, and returns what the client is told: the question, or the
// tier with the quota's outcome in seed 003's words.
func (w *caseWorkflow) classify(ctx workflow.Context, description string) (string, error) {
	lw := lifecycleWordsFor(w.in.Language)
	if err := w.waitOn(ctx, schemas.WaitingOnAgent); err != nil {
		return "", err
	}
	attempt := 1
	if w.state.Asked {
		attempt = 2
	}
	var tier schemas.TieringResult
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID: schemas.TieringWorkflowID(w.state.CaseID, attempt), StaticSummary: "Tiering",
	})
	err := workflow.ExecuteChildWorkflow(cctx, Tiering, schemas.TieringInput{
		CaseID: w.state.CaseID, Language: w.in.Language, Description: description, MustDecide: w.state.Asked,
	}).Get(ctx, &tier)
	if err != nil {
		return "", err
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
	err = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), casesActs.UpdateCaseDetails, schemas.UpdateCaseDetailsArgs{
		CaseID: w.state.CaseID, Updates: map[string]any{"tier": map[string]any{"level": tier.Tier, "justification": tier.Justification}},
	}).Get(ctx, nil)
	if err != nil {
		return "", err
	}
	if err := w.setPhase(ctx, schemas.PhaseQuota); err != nil {
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
		if err := w.setPhase(ctx, schemas.PhaseAwaitingPayment); err != nil {
			return "", err
		}
		return head + fmt.Sprintf(lw.noQuota, tier.Tier), w.waitOn(ctx, schemas.WaitingOnPayment)
	}
	if err := w.setPhase(ctx, schemas.PhaseActive); err != nil {
		return "", err
	}
	return head + fmt.Sprintf(lw.quotaOK, tier.Tier), w.waitOn(ctx, "")
}

// answerTiering is a turn of the tiering phase: the client's answer to tiering's
// question, classified with the description.
func (w *caseWorkflow) answerTiering(ctx workflow.Context, message string) (schemas.TurnResult, error) {
	w.state.Turns++
	n := w.state.Turns
	id := schemas.TurnWorkflowID(w.state.CaseID, n)
	sctx := workflow.WithActivityOptions(ctx, storeOptions)
	err := workflow.ExecuteActivity(sctx, transcriptActs.RecordUserMessage, schemas.RecordUserMessage{
		CaseID: w.state.CaseID, UserID: w.state.UserID, TurnID: id, TurnNo: n, Message: message, At: workflow.Now(ctx),
	}).Get(ctx, nil)
	if err != nil {
		return schemas.TurnResult{}, err
	}
	reply, err := w.classify(ctx, w.in.Description+"\n\n"+message)
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

// afterTurn moves the case as the turn's escalation says: waiting for the client's
// answer, with a timer; paused on the ticket the turn opened; or, when the answer's
// turn went through, open again.
func (w *caseWorkflow) afterTurn(ctx workflow.Context, in schemas.ChatTurnInput, e *schemas.Escalation) error {
	switch {
	case e != nil && e.Rung == schemas.RungAskUser:
		wait := w.in.UserWait
		if wait <= 0 {
			wait = schemas.DefaultUserWait
		}
		e.WaitUntil = workflow.Now(ctx).Add(wait)
		w.state.Escalations, w.state.Escalation = e.N, e
		if err := w.setStatus(ctx, schemas.StatusWaitingUser); err != nil {
			return err
		}
		w.watchAnswer(ctx, *e)
		return w.waitOn(ctx, schemas.WaitingOnUser)
	case e != nil && e.Rung == schemas.RungTicket:
		w.state.Escalations, w.state.Escalation = max(w.state.Escalations, e.N), e
		w.state.Tickets = append(w.state.Tickets, e.TicketID)
		if err := w.setStatus(ctx, schemas.StatusPausedSupport); err != nil {
			return err
		}
		return w.waitOn(ctx, schemas.WaitingOnSupport)
	case in.Pending != nil:
		w.state.Escalation = nil
		if err := w.setStatus(ctx, schemas.StatusOpen); err != nil {
			return err
		}
	}
	return w.waitOn(ctx, "")
}

// watchAnswer starts the timer of an escalation's question: if the case still waits on
// it when the timer fires, the main loop opens a ticket.
func (w *caseWorkflow) watchAnswer(ctx workflow.Context, e schemas.Escalation) {
	workflow.Go(ctx, func(ctx workflow.Context) {
		wait := e.WaitUntil.Sub(workflow.Now(ctx))
		answered, err := workflow.AwaitWithTimeout(ctx, max(wait, 0), func() bool {
			return w.state.Escalation == nil || w.state.Escalation.N != e.N || w.state.Status != schemas.StatusWaitingUser
		})
		if err == nil && !answered {
			w.unanswered = e.N
		}
	})
}

// ticketUnanswered opens the ticket of an escalation whose question went unanswered.
func (w *caseWorkflow) ticketUnanswered(ctx workflow.Context, e schemas.Escalation) error {
	res, err := openTicket(ctx, ticketInput(w.state.UserID, w.state.CaseID, e, "the client did not answer in time"))
	if err != nil {
		return err
	}
	e.Rung, e.TicketID = schemas.RungTicket, res.TicketID
	w.state.Escalation = &e
	w.state.Tickets = append(w.state.Tickets, res.TicketID)
	if err := w.setStatus(ctx, schemas.StatusPausedSupport); err != nil {
		return err
	}
	if err := w.waitOn(ctx, schemas.WaitingOnSupport); err != nil {
		return err
	}
	return w.notice(ctx, store.RoleAssistant, fmt.Sprintf(lifecycleWordsFor(w.in.Language).ticketUnanswered, res.TicketID))
}

// confirmPayment activates a case awaiting payment, recording its payment; the first
// confirmation counts and later ones change nothing.
func (w *caseWorkflow) confirmPayment(ctx workflow.Context, p schemas.PaymentConfirmed) error {
	if w.state.Phase != schemas.PhaseAwaitingPayment || w.state.Payment != nil {
		return nil
	}
	opts := storeOptions
	opts.Summary = "Record payment " + p.Reference
	var stored schemas.PaymentConfirmed
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), lifecycleActs.RecordPayment, activities.RecordPayment{
		CaseID: w.state.CaseID, Payment: p,
	}).Get(ctx, &stored)
	if err != nil {
		return err
	}
	w.state.Payment = &stored
	if err := w.setPhase(ctx, schemas.PhaseActive); err != nil {
		return err
	}
	if err := w.waitOn(ctx, ""); err != nil {
		return err
	}
	return w.notice(ctx, store.RoleAssistant, fmt.Sprintf(lifecycleWordsFor(w.in.Language).paid, stored.Reference))
}

// resume is support's resumption of a paused or waiting case: recorded with who and
// why, it closes the case, lets the client go on, or returns the escalation whose
// request is to run again.
func (w *caseWorkflow) resume(ctx workflow.Context, r schemas.Resume) (*schemas.Escalation, error) {
	if w.state.Status != schemas.StatusPausedSupport && w.state.Status != schemas.StatusWaitingUser {
		workflow.GetLogger(ctx).Warn("Resume ignored: the case is not paused or waiting", "Status", w.state.Status, "By", r.By)
		return nil, nil
	}
	if r.At.IsZero() {
		r.At = workflow.Now(ctx)
	}
	status := schemas.StatusOpen
	if r.Action == schemas.ResumeClose {
		status = schemas.StatusClosed
	}
	opts := storeOptions
	opts.Summary = fmt.Sprintf("Support %s resumes the case: %s", r.By, r.Action)
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), lifecycleActs.RecordResume, activities.RecordResume{
		CaseID: w.state.CaseID, Resume: r,
	}).Get(ctx, nil)
	if err != nil {
		return nil, err
	}
	escalated := w.state.Escalation
	w.state.LastResume, w.state.Escalation = &r, nil
	if err := w.setStatus(ctx, status); err != nil {
		return nil, err
	}
	if err := w.waitOn(ctx, ""); err != nil {
		return nil, err
	}
	if err := w.notice(ctx, store.RoleSupport, fmt.Sprintf(lifecycleWordsFor(w.in.Language).resumed[r.Action], r.By, r.Note)); err != nil {
		return nil, err
	}
	if r.Action != schemas.ResumeRetry || escalated == nil || escalated.Message == "" {
		return nil, nil
	}
	return escalated, nil
}

// retryEscalated runs an escalated turn's request again, as a new turn.
func (w *caseWorkflow) retryEscalated(ctx workflow.Context, e schemas.Escalation) error {
	w.state.Busy = true
	defer func() { w.state.Busy = false }()
	_, err := w.runTurn(ctx, schemas.SendMessageRequest{Message: e.Message, Selection: e.Selection})
	return err
}

// closeCase closes the case at the client's request: the main loop then ends the
// workflow.
func (w *caseWorkflow) closeCase(ctx workflow.Context, c schemas.CloseCase) error {
	if err := w.setStatus(ctx, schemas.StatusClosed); err != nil {
		return err
	}
	if err := w.waitOn(ctx, ""); err != nil {
		return err
	}
	text := fmt.Sprintf(lifecycleWordsFor(w.in.Language).closed, c.By, c.Note)
	return w.notice(ctx, store.RoleAssistant, strings.TrimSpace(text))
}
