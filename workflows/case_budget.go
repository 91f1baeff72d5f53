package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// budgetExhausted returns what a model call refused for its model-token budget said:
// which budget ran out and when it renews.
func budgetExhausted(err error) (schemas.BudgetExhausted, bool) {
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != schemas.ErrBudgetExhausted {
		return schemas.BudgetExhausted{}, false
	}
	var b schemas.BudgetExhausted
	if appErr.HasDetails() && appErr.Details(&b) != nil {
		b = schemas.BudgetExhausted{}
	}
	if b.Scope != schemas.BudgetTenant {
		b.Scope = schemas.BudgetCase
	}
	return b, true
}

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
// short, classifies again. A signal for another tenant (see tenantKey), or one that
// finds the case not waiting, changes nothing.
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
	w.state.Budget = nil
	if err := w.setStatus(ctx, schemas.StatusOpen); err != nil {
		return err
	}
	if err := w.waitOn(ctx, ""); err != nil {
		return err
	}
	if err := w.notice(ctx, schemas.RecordAssistant, text); err != nil {
		return err
	}
	if p.Tiering == "" {
		return nil
	}
	reply, err := w.classify(ctx, p.Tiering)
	if err == nil {
		err = w.notice(ctx, schemas.RecordAssistant, reply)
	}
	if err != nil {
		return w.stallOr(ctx, err, schemas.Stall{Step: schemas.StepTiering, Tiering: p.Tiering})
	}
	return nil
}
