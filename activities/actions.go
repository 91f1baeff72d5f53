package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Actions verifies that an event sent to a case is backed by the audited record the
// API wrote before sending it.
type Actions struct {
	Audit store.Audit
}

// VerifyAction returns nil if the audit record in.ID backs the event: it exists, is
// of in.Action (or, for a closing, a resumption with the action close), names the case (for a budget, the case's tenant) and has in.By as its
// actor. Otherwise it audits the refusal and returns ErrEventRefused.
func (a *Actions) VerifyAction(ctx context.Context, in schemas.VerifyAction) error {
	e, err := a.Audit.GetAudit(ctx, in.ID)
	reason := ""
	switch {
	case isNotFound(err):
		reason = "no audit record " + in.ID
	case err != nil:
		return err
	case e.Action != in.Action && !resumedToClose(e, in):
		reason = fmt.Sprintf("the audit record is %s, not %s", e.Action, in.Action)
	case e.Actor != in.By:
		reason = "the audit record's actor is not " + in.By
	case in.Action == schemas.ActionBudget && fmt.Sprint(e.Detail["tenant"]) != in.Tenant:
		reason = "the audit record sets another tenant's budget"
	case in.Action != schemas.ActionBudget && e.CaseID != in.CaseID:
		reason = "the audit record is another case's"
	case in.Tier != 0 && detailInt(e.Detail["tier"]) != int64(in.Tier):
		reason = fmt.Sprintf("the audit record sets no tier %d", in.Tier)
	}
	if reason == "" {
		return nil
	}
	return refuse(ctx, a.Audit, in.CaseID, in.Action, in.ID, in.By, reason)
}

// resumedToClose reports whether e, a support resumption with the action close,
// backs in, a closing: the one a stalled case runs again when the closing it took
// from that resumption stalled (workflows' unstall).
func resumedToClose(e store.AuditEntry, in schemas.VerifyAction) bool {
	return in.Action == schemas.ActionClose && e.Action == schemas.ActionResume && e.Detail["action"] == schemas.ResumeClose
}

// refuse audits a case's event that no record backs, logs it, and returns the
// non-retryable ErrEventRefused the case reads as "do not act on it".
func refuse(ctx context.Context, audit store.Audit, caseID, what, id, by, reason string) error {
	activity.GetLogger(ctx).Warn("Case event refused: no audited record backs it", "Case", caseID, "Event", what, "ID", id, "By", by, "Reason", reason)
	e := store.AuditEntry{ID: "refused-" + uuid.NewSHA1(uuid.NameSpaceURL, []byte(caseID+"/"+id)).String(), At: time.Now().UTC(),
		Actor: schemas.ActorLexflow, Roles: []string{}, Action: schemas.ActionRefused, CaseID: caseID,
		Detail: map[string]any{"event": what, "id": id, "by": by, "reason": reason}}
	if err := audit.RecordAudit(ctx, e); err != nil {
		return err
	}
	return temporal.NewNonRetryableApplicationError(reason, schemas.ErrEventRefused, nil)
}

// isNotFound reports whether err is the store's "no such record".
func isNotFound(err error) bool {
	return errors.Is(err, store.ErrNotFound)
}
