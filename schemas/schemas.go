// Package schemas is the contract between Lexflow's processes: task queues, workflow IDs,
// update, signal and query names, status values, error types, roles, and the JSON-tagged
// payload of every workflow, activity, update and tool. Whatever one process writes and
// another reads is named here, once.
package schemas

import "time"

// TaskQueue is the default task queue that workers poll and the API starts workflows on.
const TaskQueue = "lexflow"

// Workflow names, as workers register them.
const (
	CaseWorkflow          = "Case"
	ChatTurnWorkflow      = "ChatTurn"
	TieringWorkflow       = "Tiering"
	QuotaWorkflow         = "Quota"
	DraftWorkflow         = "Draft"
	SupportTicketWorkflow = "SupportTicket"
	EraseWorkflow         = "Erase"
	RetentionWorkflow     = "Retention"
	CitationCheckWorkflow = "CitationCheck"
	ToolExecutionWorkflow = "ToolExecution"
	QueryWorkflow         = "Query"
	ChatWorkflow          = "Chat"
	DocumentWorkflow      = "Document"
)

// Update, signal and query names of the Case workflow, and the ChatTurn's cancel signal.
const (
	UpdateSendMessage = "send-message"
	UpdateCancelTurn  = "cancel-turn"
	SignalCancelTurn  = "cancel"
	QueryState        = "state"
	// SignalPaymentConfirmed carries a PaymentConfirmed to a case awaiting payment. It
	// stays a signal so that a provider's webhook lands while no worker runs; the
	// payment's ID (PaymentConfirmed.ID) names it to UpdateSettlePayment.
	SignalPaymentConfirmed = "payment-confirmed"
	// UpdateSettlePayment takes a payment's ID and returns the CaseOutcome once the
	// case has handled that payment, or after SettleWait, so that the API can answer
	// with the payment's outcome.
	UpdateSettlePayment = "settle-payment"
	// UpdateResume carries support's Resume to a paused or waiting case and returns
	// its CaseOutcome.
	UpdateResume = "resume"
	// UpdateCloseCase carries a CloseCase (the client is done, or the case is erased)
	// and returns its CaseOutcome.
	UpdateCloseCase = "close-case"
	// UpdateBudgetRaised carries a BudgetRaised to a case waiting on its budget and
	// returns its CaseOutcome.
	UpdateBudgetRaised = "budget-raised"
)

// SettleWait bounds how long the case's updates wait for the case to handle what
// they carry; what is not handled by then stays queued and is handled later.
const SettleWait = time.Minute

// Languages a case can be conducted in.
var Languages = []string{"en", "ro", "it"}

// Limits shared by the API and the Case workflow's update validator.
const (
	// MaxMessageChars is the longest user message accepted, in characters.
	MaxMessageChars = 8000
	// DefaultMaxSteps is how many model calls a chat turn may make.
	DefaultMaxSteps = 5
	// DefaultUserWait is how long a case waits for the client's answer to the escalation
	// ladder's question when its input sets no wait.
	DefaultUserWait = 24 * time.Hour
)
