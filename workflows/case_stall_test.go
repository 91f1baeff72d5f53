package workflows

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
)

// TestPaymentRecordFailureStallsForSupport: the payment's record fails for good, so
// the case is paused for support, keeping the payment (the settle answers at once,
// with the stall) and refusing messages; support's retry records the payment again
// and the case is active. Nothing fails the workflow.
func TestPaymentRecordFailureStallsForSupport(t *testing.T) {
	env := newCaseEnvQuota(t, false)
	records := 0
	env.OnActivity(paymentActs.RecordPayment, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.RecordPayment) (schemas.PaymentConfirmed, error) {
			if records++; records == 1 {
				return schemas.PaymentConfirmed{}, temporal.NewNonRetryableApplicationError("case gone from the store", schemas.ErrInvalidArgs, nil)
			}
			return in.Payment, nil
		})
	paidAt := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var settled, forged, resume *event
	var stalled, stillStalled, resumed schemas.CaseStatus
	var refused *update
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalPaymentConfirmed, schemas.PaymentConfirmed{ID: "evt_1", Reference: "cs_1", By: "stripe", At: paidAt})
		settled = caseEvent(env, schemas.UpdateSettlePayment, "s1", "evt_1")
	}, time.Second)
	env.RegisterDelayedCallback(func() { stalled = caseState(t, env); refused = sendMessage(env, "u1", "hello") }, 2*time.Second)
	env.RegisterDelayedCallback(func() {
		forged = caseEvent(env, schemas.UpdateResume, "forged-r", schemas.Resume{Action: schemas.ResumeClose, Note: "no record", By: "sam"})
	}, 5*time.Second/2)
	env.RegisterDelayedCallback(func() { stillStalled = caseState(t, env) }, 11*time.Second/4)
	env.RegisterDelayedCallback(func() {
		resume = caseEvent(env, schemas.UpdateResume, "r1", schemas.Resume{Action: schemas.ResumeRetry, Note: "store restored", By: "sam"})
	}, 3*time.Second)
	env.RegisterDelayedCallback(func() { resumed = caseState(t, env) }, 4*time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	if !temporal.IsCanceledError(env.GetWorkflowError()) {
		t.Fatalf("workflow error = %v, want only the test's cancel", env.GetWorkflowError())
	}
	if settled.err != nil || settled.outcome.Handled || settled.outcome.Status != schemas.StatusPausedSupport {
		t.Errorf("settle of the payment the case stalled on: %+v, want answered unhandled, paused", settled)
	}
	s := stalled.Stalled
	if stalled.Status != schemas.StatusPausedSupport || stalled.WaitingOn != schemas.WaitingOnSupport || stalled.Phase != schemas.PhaseAwaitingPayment ||
		s == nil || s.Step != schemas.StepEvent || !strings.Contains(s.Error, "case gone from the store") {
		t.Fatalf("state after the failed record = %+v (stalled %+v)", stalled, s)
	}
	if refused == nil || refused.accepted || !hasErrorType(refused.rejected, schemas.ErrCasePaused) {
		t.Errorf("message to the stalled case: %+v, want refused as %s", refused, schemas.ErrCasePaused)
	}
	// A resumption with no audited record behind it leaves the case stalled.
	if forged.err != nil || forged.outcome.Refused == "" || stillStalled.Stalled == nil || stillStalled.Status != schemas.StatusPausedSupport {
		t.Errorf("a forged resumption of the stalled case: %+v, state %+v; want refused, still stalled", forged, stillStalled)
	}
	if resume.err != nil || !resume.outcome.Handled || resume.outcome.Phase != schemas.PhaseActive {
		t.Errorf("support's retry: %+v, want handled, active", resume)
	}
	if resumed.Status != schemas.StatusOpen || resumed.Phase != schemas.PhaseActive || resumed.Stalled != nil ||
		resumed.Payment == nil || resumed.Payment.Reference != "cs_1" || resumed.WaitingOn != "" || records != 2 {
		t.Errorf("state after support's retry = %+v after %d records, want active with the payment", resumed, records)
	}
}

// TestRefusedTierRecordStallsForSupport: the tier's record answers an error result (the
// case is gone from the store, say), so the case stalls on its tiering rather than
// going on unrecorded; support's retry classifies again.
func TestRefusedTierRecordStallsForSupport(t *testing.T) {
	records := 0
	env := newCaseEnvWith(t, caseEnvOptions{recordTier: func() schemas.StatusResult {
		if records++; records == 1 {
			return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}
		}
		return schemas.StatusResult{Status: schemas.ResultSuccess}
	}})
	var stalled, resumed schemas.CaseStatus
	env.RegisterDelayedCallback(func() { stalled = caseState(t, env) }, time.Second)
	env.RegisterDelayedCallback(func() {
		caseEvent(env, schemas.UpdateResume, "r1", schemas.Resume{Action: schemas.ResumeRetry, Note: "case restored", By: "sam"})
	}, 2*time.Second)
	env.RegisterDelayedCallback(func() { resumed = caseState(t, env); env.CancelWorkflow() }, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	if s := stalled.Stalled; stalled.Status != schemas.StatusPausedSupport || s == nil || s.Step != schemas.StepTiering {
		t.Fatalf("state after the refused record = %+v (stalled %+v)", stalled, s)
	}
	if resumed.Status != schemas.StatusOpen || resumed.Phase != schemas.PhaseActive || resumed.Stalled != nil || records != 2 {
		t.Errorf("state after support's retry = %+v after %d records", resumed, records)
	}
}

// TestTierReviewPausesForSupport: tiering could not read a tier, so the client is
// told that support reviews it and the case stalls on its tiering, at no tier and no
// price; support's retry classifies again.
func TestTierReviewPausesForSupport(t *testing.T) {
	said := &[]string{}
	env := newCaseEnvWith(t, caseEnvOptions{said: said,
		tierings: []schemas.TieringResult{{Review: "no tier read"}, {Tier: 2, Justification: "a lease dispute"}}})
	var stalled, resumed schemas.CaseStatus
	env.RegisterDelayedCallback(func() { stalled = caseState(t, env) }, time.Second)
	env.RegisterDelayedCallback(func() {
		caseEvent(env, schemas.UpdateResume, "r1", schemas.Resume{Action: schemas.ResumeRetry, Note: "tier reviewed", By: "sam"})
	}, 2*time.Second)
	env.RegisterDelayedCallback(func() { resumed = caseState(t, env); env.CancelWorkflow() }, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	if s := stalled.Stalled; stalled.Status != schemas.StatusPausedSupport || s == nil || s.Step != schemas.StepTiering || stalled.Tier != 0 {
		t.Fatalf("state after the review = %+v (stalled %+v), want paused on tiering with no tier", stalled, s)
	}
	if len(*said) < 2 || (*said)[1] != caseWordsFor("en").tierReview {
		t.Errorf("the client was told %q, want the review notice first after the welcome", *said)
	}
	if resumed.Status != schemas.StatusOpen || resumed.Phase != schemas.PhaseActive || resumed.Tier != 2 {
		t.Errorf("state after support's retry = %+v, want active at tier 2", resumed)
	}
}

// TestBudgetRenewalThatFailsStallsAndResumes: at midnight the case cannot leave
// waiting_budget (its status write fails for good), so it stalls keeping its pause;
// support's retry then renews it whole: open, the notice, and tiering classified.
func TestBudgetRenewalThatFailsStallsAndResumes(t *testing.T) {
	failed := false
	said := &[]string{}
	env := newCaseEnvWith(t, caseEnvOptions{said: said,
		tierings: []schemas.TieringResult{{Budget: new(outOfBudget(schemas.BudgetCase))}, {Tier: 2, Justification: "a lease dispute"}},
		setPhase: func(in schemas.CaseStatus) error {
			if in.Status == schemas.StatusOpen && in.Phase == schemas.PhaseTiering && !failed {
				failed = true
				return temporal.NewNonRetryableApplicationError("store refused the write", schemas.ErrInvalidArgs, nil)
			}
			return nil
		}})
	env.SetStartTime(budgetStart)
	var stalled, resumed schemas.CaseStatus
	env.RegisterDelayedCallback(func() {
		stalled = caseState(t, env)
		caseEvent(env, schemas.UpdateResume, "r1", schemas.Resume{Action: schemas.ResumeRetry, Note: "store back", By: "sam"})
	}, 10*time.Hour)
	env.RegisterDelayedCallback(func() { resumed = caseState(t, env); env.CancelWorkflow() }, 11*time.Hour)
	env.ExecuteWorkflow(Case, caseIn)

	if s := stalled.Stalled; stalled.Status != schemas.StatusPausedSupport || s == nil || s.Step != schemas.StepBudgetRenewed ||
		stalled.Budget == nil {
		t.Fatalf("state after the failed renewal = %+v (stalled %+v), want stalled with the pause kept", stalled, s)
	}
	if resumed.Status != schemas.StatusOpen || resumed.Phase != schemas.PhaseActive || resumed.Tier != 2 || resumed.Budget != nil || resumed.Stalled != nil {
		t.Errorf("state after support's retry = %+v", resumed)
	}
	if !containsAll(strings.Join(*said, "\n"), []string{caseWordings["en"].renewed, "Case tier: 2. a lease dispute"}) {
		t.Errorf("notices = %q", *said)
	}
}

// TestStalledCaseClosedBySupport: support's resume of a stalled case with "close"
// closes it, and the resume update answers handled, closed; a message sent meanwhile
// (the store may show the move already) is refused once the case has closed; the
// closed case starts its memory proposal.
func TestStalledCaseClosedBySupport(t *testing.T) {
	var proposals []schemas.ProposeMemory
	env := newCaseEnvWith(t, caseEnvOptions{noQuota: true, proposals: &proposals})
	env.OnActivity(paymentActs.RecordPayment, mock.Anything, mock.Anything).Return(schemas.PaymentConfirmed{},
		temporal.NewNonRetryableApplicationError("case gone from the store", schemas.ErrInvalidArgs, nil))
	var resume *event
	var stalled schemas.CaseStatus
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(schemas.SignalPaymentConfirmed, schemas.PaymentConfirmed{ID: "evt_1", Reference: "cs_1", By: "stripe"})
	}, time.Second)
	env.RegisterDelayedCallback(func() { stalled = caseState(t, env) }, 2*time.Second)
	env.RegisterDelayedCallback(func() {
		resume = caseEvent(env, schemas.UpdateResume, "r1", schemas.Resume{Action: schemas.ResumeClose, Note: "the client paid by hand", By: "sam"})
	}, 3*time.Second)
	env.ExecuteWorkflow(Case, caseIn)

	if stalled.Status != schemas.StatusPausedSupport || stalled.Stalled == nil {
		t.Fatalf("state after the failed record = %+v", stalled)
	}
	if resume.err != nil || !resume.outcome.Handled || resume.outcome.Status != schemas.StatusClosed {
		t.Errorf("support's close of the stalled case: %+v, want handled, closed", resume)
	}
	var res schemas.CaseResult
	if err := env.GetWorkflowResult(&res); err != nil || res.State.Status != schemas.StatusClosed {
		t.Errorf("workflow result %+v, %v; want closed", res.State, err)
	}
	// The closed case starts its memory proposal, once.
	if want := (schemas.ProposeMemory{CaseID: "c1", UserID: caseIn.UserID, Language: caseIn.Language}); len(proposals) != 1 || proposals[0] != want {
		t.Errorf("memory proposals started = %+v, want one for the closed case", proposals)
	}
}

// TestTierReviewSetsTheTier: support's review of a tier the model could not give sets
// it with the resumption, and the case goes on at that tier without asking the model
// again; a tier is refused on a resumption of a case not stalled on its tiering.
func TestTierReviewSetsTheTier(t *testing.T) {
	said := &[]string{}
	env := newCaseEnvWith(t, caseEnvOptions{said: said, tierings: []schemas.TieringResult{{Review: "no tier read"}, {Tier: 1, Justification: "asked again"}}})
	var reviewed *event
	var resumed schemas.CaseStatus
	env.RegisterDelayedCallback(func() {
		reviewed = caseEvent(env, schemas.UpdateResume, "r1", schemas.Resume{Action: schemas.ResumeContinue, Note: "a claim of 90,000 EUR", Tier: 3, By: "sam"})
	}, 2*time.Second)
	env.RegisterDelayedCallback(func() { resumed = caseState(t, env); env.CancelWorkflow() }, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	if reviewed.err != nil || !reviewed.outcome.Handled {
		t.Fatalf("support's review: %+v", reviewed)
	}
	if resumed.Status != schemas.StatusOpen || resumed.Phase != schemas.PhaseActive || resumed.Tier != 3 ||
		!strings.Contains(resumed.Justification, "sam") {
		t.Errorf("state after support's review = %+v, want active at tier 3, set by sam", resumed)
	}
}

// A tier on a resumption of a case that is not stalled on its tiering is refused.
func TestResumeWithATierRefusedOutsideAReview(t *testing.T) {
	env := newCaseEnv(t)
	var r *event
	env.RegisterDelayedCallback(func() {
		r = caseEvent(env, schemas.UpdateResume, "r1", schemas.Resume{Action: schemas.ResumeContinue, Note: "cheaper", Tier: 1, By: "sam"})
	}, time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)
	if r.accepted || !hasErrorType(r.rejected, schemas.ErrNotApplicable) || !strings.Contains(r.rejected.Error(), "tiering") {
		t.Errorf("a tier outside a review: %+v, want rejected for it", r)
	}
}
