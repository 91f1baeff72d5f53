package schemas

// Application error types. Activities and workflows return them with
// temporal.NewApplicationError so that retry policies and the API can tell failures apart.
const (
	// ErrInvalidArgs marks bad input to an activity; it is never retried.
	ErrInvalidArgs = "InvalidArgs"
	// ErrModelRejected marks a request the model endpoint refused (400, 401, 403, ...);
	// sending it again cannot succeed.
	ErrModelRejected = "ModelRejected"
	// ErrSearchFailed marks a search service's failure that a retry cannot mend (any
	// answer but 502, 503, 504 or a timeout).
	ErrSearchFailed = "SearchFailed"
	// ErrToolUnavailable marks a tool this deployment cannot serve (no SearXNG, say).
	ErrToolUnavailable = "ToolUnavailable"
	// ErrInvalidMessage marks a send-message update rejected by the validator.
	ErrInvalidMessage = "InvalidMessage"
	// ErrCaseClosed marks a send-message update sent to a closed case.
	ErrCaseClosed = "CaseClosed"
	// ErrNoTurn marks a cancel-turn update sent when no turn is running.
	ErrNoTurn = "NoTurnRunning"
	// ErrPaymentRequired marks a message sent to a case awaiting payment.
	ErrPaymentRequired = "PaymentRequired"
	// ErrCasePaused marks a message sent to a case paused for support.
	ErrCasePaused = "CasePaused"
	// ErrBudgetExhausted marks a model call, or a message, refused because the case's
	// or its tenant's model-token budget for the day is used up; its details are a
	// BudgetExhausted.
	ErrBudgetExhausted = "BudgetExhausted"
	// ErrLegalHold marks an erasure refused because the case is under a legal hold.
	ErrLegalHold = "LegalHold"
	// ErrInvalidUpdate marks a resume, close-case or budget-raised update the Case's
	// validator rejected for its content (an unknown action, a missing note or actor).
	ErrInvalidUpdate = "InvalidUpdate"
	// ErrNotApplicable marks a resume or budget-raised update the Case's validator
	// rejected for the case's state: it is not paused or waiting, not waiting on its
	// budget, or the budget raised is another tenant's.
	ErrNotApplicable = "NotApplicable"
	// ErrEventRefused is a case event (a payment, a resumption, a closing, a raised
	// budget) that no audited record backs: the case does not act on it.
	ErrEventRefused = "EventRefused"
	// ErrTierReview pauses a case for support to review its tier: the tiering model
	// gave no tier it could read when one had to be decided.
	ErrTierReview = "TierReview"
)
