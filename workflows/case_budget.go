package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// budgetReply tells the client, in the case's language, which budget ran out and when
// the case resumes.
func budgetReply(lang string, b schemas.BudgetExhausted) string {
	return fmt.Sprintf(caseWordsFor(lang).budget[b.Scope], b.Limit, b.ResumeAt.UTC().Format("2006-01-02 15:04 UTC"))
}

// pauseForBudget moves the case to waiting_budget until its budget renews (b.ResumeAt)
// or an admin raises it. tiering is what tiering was classifying when the budget ran
// out, classified again once the case resumes; empty when a turn ran out.
func (w *caseWorkflow) pauseForBudget(ctx workflow.Context, b schemas.BudgetExhausted, tiering string) error {
	if b.ResumeAt.IsZero() {
		b.ResumeAt = schemas.NextUTCDay(workflow.Now(ctx))
	}
	w.state.Budget = &schemas.BudgetPause{BudgetExhausted: b, Tiering: tiering}
	if err := w.setStatus(ctx, schemas.StatusWaitingBudget); err != nil {
		return err
	}
	w.watchBudget(ctx, *w.state.Budget)
	return w.waitOn(ctx, schemas.WaitingOnBudget)
}

// watchBudget starts the timer of a budget pause: if the case is still paused by it
// when the budget renews, the main loop resumes the case.
func (w *caseWorkflow) watchBudget(ctx workflow.Context, p schemas.BudgetPause) {
	workflow.Go(ctx, func(ctx workflow.Context) {
		wait := p.ResumeAt.Sub(workflow.Now(ctx))
		ended, err := workflow.AwaitWithTimeout(ctx, max(wait, 0), func() bool {
			return w.state.Budget == nil || !w.state.Budget.ResumeAt.Equal(p.ResumeAt)
		})
		if err == nil && !ended {
			w.budgetRenewed = true
		}
	})
}

// resumeBudget lets a case that waits on its budget go on: the day turned (r is nil)
// or an admin raised its tenant's budget. The case says so and, if tiering was cut
// short, classifies again. A raised budget for another tenant, or one that finds the case not
// waiting, changes nothing. If the case cannot leave waiting_budget it returns the
// error with the pause kept, so that the step runs again whole; a failure after that
// stalls the case on what is left to do.
func (w *caseWorkflow) resumeBudget(ctx workflow.Context, r *schemas.BudgetRaised) error {
	p := w.state.Budget
	if w.state.Status != schemas.StatusWaitingBudget || p == nil || (r != nil && r.Tenant != schemas.TenantKey(w.in.OrgID, w.in.UserID)) {
		return nil
	}
	lw := caseWordsFor(w.in.Language)
	text := lw.renewed
	if r != nil {
		text = fmt.Sprintf(lw.raised, r.By)
	}
	if err := w.setStatus(ctx, schemas.StatusOpen); err != nil {
		return err
	}
	w.state.Budget = nil
	if err := w.waitOn(ctx, ""); err != nil {
		return err
	}
	rest := schemas.Stall{Step: schemas.StepTiering, Notice: text, Tiering: p.Tiering}
	if err := w.runStep(ctx, &rest); err != nil {
		return w.stallOr(ctx, err, rest)
	}
	return nil
}
