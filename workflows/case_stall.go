package workflows

import (
	"fmt"
	"slices"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// stallOr pauses the case for support on step s, which failed with err, rather than
// failing the workflow: a case's own step fails for good only when its store write ran
// out of retries or was refused, or a phase's child workflow failed, and the case must
// not be lost for that. The pause opens no ticket and needs no store write (the store
// is what most likely failed): the case's state and search attributes say
// paused_support, support's list shows it, and only then is its status written to the
// store, a write that may fail (see publish); its resume runs the step again
// (unstall). It returns nil once stalled, err when the workflow is cancelled.
func (w *caseWorkflow) stallOr(ctx workflow.Context, err error, s schemas.Stall) error {
	if temporal.IsCanceledError(err) || ctx.Err() != nil {
		return err
	}
	now := workflow.Now(ctx)
	s.Error, s.At, s.Status, s.WaitingOn = err.Error(), now, w.state.Status, w.state.WaitingOn
	w.state.Stalled = &s
	w.state.Status, w.state.WaitingOn, w.state.ProgressAt = schemas.StatusPausedSupport, schemas.WaitingOnSupport, now
	workflow.GetLogger(ctx).Error("A step of the case failed; the case is paused for support", "Step", s.Step, "Error", err)
	if err := workflow.UpsertTypedSearchAttributes(ctx, schemas.SACaseStatus.ValueSet(w.state.Status),
		schemas.SAWaitingOn.ValueSet(w.state.WaitingOn), schemas.SAProgressAt.ValueSet(now)); err != nil {
		return err
	}
	w.publish(ctx)
	return nil
}

// unstall handles support's resume of a stalled case: the first resume queued, if any
// (the other events wait until the case is no longer stalled). The case gets back the
// status it had; close closes it, retry and continue run the stalled step again, which
// may stall the case anew. A resumption that sets a tier (a tier review) classifies
// the case at that tier.
func (w *caseWorkflow) unstall(ctx workflow.Context) error {
	i := slices.IndexFunc(w.events, func(e schemas.CaseEvent) bool { return e.Resume != nil })
	if i < 0 {
		return nil
	}
	id, r := w.events[i].ID, *w.events[i].Resume
	backed := w.backed(ctx, w.events[i])
	w.events = slices.Delete(w.events, i, i+1)
	if !backed {
		return nil
	}
	s := *w.state.Stalled
	w.state.Stalled, w.state.LastResume = nil, &r
	w.state.Status, w.state.WaitingOn, w.state.ProgressAt = s.Status, s.WaitingOn, workflow.Now(ctx)
	err := workflow.UpsertTypedSearchAttributes(ctx, schemas.SACaseStatus.ValueSet(s.Status),
		schemas.SAWaitingOn.ValueSet(s.WaitingOn), schemas.SAProgressAt.ValueSet(w.state.ProgressAt))
	if err != nil {
		return err
	}
	defer w.handled(id) // once the step has run, or stalled again
	if r.Action == schemas.ResumeClose {
		c := schemas.CloseCase{By: r.By, Note: r.Note, At: r.At}
		if err := w.closeCase(ctx, c); err != nil {
			return w.stallOr(ctx, err, schemas.Stall{Step: schemas.StepEvent, Event: &schemas.CaseEvent{ID: id, Close: &c}})
		}
		return nil
	}
	if r.Tier != 0 && s.Step == schemas.StepTiering {
		// Support's review decided the tier: classifying goes on from it, as from a
		// tier decided before a stall, without asking the model again.
		w.state.Tier, w.state.Justification = r.Tier, fmt.Sprintf(caseWordsFor(w.in.Language).tierBySupport, r.By, r.Note)
	}
	if err := w.runStep(ctx, &s); err != nil {
		return w.stallOr(ctx, err, s)
	}
	return nil
}

// runStep runs a stalled step again. A StepTiering step's notice, once written, is
// cleared from s, so that a step that stalls again does not write it twice.
func (w *caseWorkflow) runStep(ctx workflow.Context, s *schemas.Stall) error {
	switch s.Step {
	case schemas.StepTiering:
		if s.Notice != "" {
			if err := w.notice(ctx, schemas.RecordAssistant, s.Notice); err != nil {
				return err
			}
			s.Notice = ""
		}
		if s.Tiering == "" {
			return nil
		}
		reply, err := w.classify(ctx, s.Tiering)
		if err != nil {
			return err
		}
		return w.notice(ctx, schemas.RecordAssistant, reply)
	case schemas.StepEvent:
		return w.handleEvent(ctx, *s.Event)
	case schemas.StepUnanswered:
		if e := w.state.Escalation; e != nil && e.N == s.Escalation.N && w.state.Status == schemas.StatusWaitingUser {
			return w.ticketUnanswered(ctx, *e)
		}
	case schemas.StepBudgetRenewed:
		return w.resumeBudget(ctx, nil)
	}
	return nil
}
