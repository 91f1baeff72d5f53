package workflows

import (
	"errors"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// verifiedActions is the change that has a case verify, before it acts on a
// resumption, a closing or a raised budget, the audited record the event names.
const verifiedActions = "verified-actions"

// verify checks, as a local activity (a read the event waits on), that the audited
// record named by e's ID backs e (see activities.Actions.VerifyAction): an update
// sent to Temporal directly, with no record the API wrote, is refused with
// ErrEventRefused. A payment is checked where it is recorded
// (activities.Payments.RecordPayment).
func (w *caseWorkflow) verify(ctx workflow.Context, e schemas.CaseEvent) error {
	var v schemas.VerifyAction
	switch {
	case e.Resume != nil:
		v = schemas.VerifyAction{Action: schemas.ActionResume, By: e.Resume.By, Tier: e.Resume.Tier}
	case e.Close != nil:
		v = schemas.VerifyAction{Action: schemas.ActionClose, By: e.Close.By}
	case e.Budget != nil:
		v = schemas.VerifyAction{Action: schemas.ActionBudget, By: e.Budget.By, Tenant: e.Budget.Tenant}
	default:
		return nil
	}
	if workflow.GetVersion(ctx, verifiedActions, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return nil
	}
	v.CaseID, v.ID = w.state.CaseID, e.ID
	lo := localOptions(storeOptions)
	lo.ScheduleToCloseTimeout = localStepBudget
	lo.Summary = "Verify the audited record of " + v.Action
	return workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, lo), actionActs.VerifyAction, v).Get(ctx, nil)
}

// backed reports whether the case may act on e (see verify). An event refused, or
// whose record could not be checked, is not acted on: it is marked handled and
// refused, with the reason its outcome gives.
func (w *caseWorkflow) backed(ctx workflow.Context, e schemas.CaseEvent) bool {
	err := w.verify(ctx, e)
	if err == nil {
		return true
	}
	reason, ok := refusal(err)
	if !ok {
		reason = "its audited record could not be checked: " + err.Error()
	}
	w.refuse(ctx, e.ID, reason)
	return false
}

// refuse marks the event named id handled and refused for reason.
func (w *caseWorkflow) refuse(ctx workflow.Context, id, reason string) {
	workflow.GetLogger(ctx).Warn("Case event refused", "ID", id, "Reason", reason)
	w.state.Refused = append(w.state.Refused, schemas.RefusedEvent{ID: id, Reason: reason})
	if n := len(w.state.Refused); n > schemas.MaxHandled {
		w.state.Refused = w.state.Refused[n-schemas.MaxHandled:]
	}
	w.handled(id)
}

// refusedWhy is why the event named id was refused, or "".
func (w *caseWorkflow) refusedWhy(id string) string {
	for _, r := range w.state.Refused {
		if r.ID == id {
			return r.Reason
		}
	}
	return ""
}

// refusal returns the reason of an event refused for want of a record.
func refusal(err error) (string, bool) {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) && appErr.Type() == schemas.ErrEventRefused {
		return appErr.Message(), true
	}
	return "", false
}
