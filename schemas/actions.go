package schemas

// Audited actions that carry authority over a case. The API records each in the audit
// log before it tells the case, and the event it sends names that record; the case
// acts only once an activity has found the record and checked it against the event
// (see VerifyAction), so a signal or update sent to Temporal directly changes nothing.
const (
	// ActionResume is support's resumption of a paused or waiting case.
	ActionResume = "case.resume"
	// ActionClose is a case closed by its client, or by its erasure.
	ActionClose = "case.close"
	// ActionBudget is a tenant's budgets set by its staff or the operator's.
	ActionBudget = "budget.put"
	// ActionOfflinePayment is billing staff's record of a payment made outside the
	// provider.
	ActionOfflinePayment = "payment.offline"
	// ActionErase is a case's erasure.
	ActionErase = "case.erase"
	// ActionRefused is an event a case refused because no record backs it; its actor
	// is ActorLexflow.
	ActionRefused = "case.event.refused"
)

// ActorLexflow is the actor of the audit entries Lexflow itself records.
const ActorLexflow = "lexflow"

// VerifyAction asks whether the audit record ID backs the case's event of the kind
// Action, sent as By: the record must exist, be of that action, name the case (or,
// for ActionBudget, the case's tenant) and have By as its actor.
type VerifyAction struct {
	CaseID string `json:"case_id"`
	Tenant string `json:"tenant"`
	Action string `json:"action"`
	ID     string `json:"id"`
	By     string `json:"by"`
	// Tier is the tier a resumption sets, which its record must name too.
	Tier int `json:"tier,omitempty"`
}
