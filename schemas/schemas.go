// Package schemas is the contract between Lexflow's processes: task queues, workflow IDs,
// update, signal and query names, status values, error types, and the JSON-tagged payload
// of every workflow, activity, update and tool.
package schemas

import (
	"fmt"
	"time"
)

// TaskQueue is the default task queue that workers poll and the API starts workflows on.
const TaskQueue = "lexflow"

// Workflow, update and query names.
const (
	CaseWorkflow      = "Case"
	ChatTurnWorkflow  = "ChatTurn"
	UpdateSendMessage = "send-message"
	UpdateCancelTurn  = "cancel-turn"
	SignalCancelTurn  = "cancel"
	QueryState        = "state"
	// SignalPaymentConfirmed carries a PaymentConfirmed to a case awaiting payment.
	SignalPaymentConfirmed = "payment-confirmed"
	// SignalResume carries a Resume from support staff to a paused or waiting case.
	SignalResume = "resume"
	// SignalCloseCase carries a CloseCase from the client: the case is done.
	SignalCloseCase = "close-case"
	// UpdateSettle takes a signal's At stamp and returns the case's state once that
	// signal is handled (or after SettleWait), so that the API can answer with the
	// signal's outcome.
	UpdateSettle = "settle"
)

// SettleWait bounds how long a settle update waits for its signal.
const SettleWait = time.Minute

// Case phases, in order (seed 003's Phase 1 and Phase 2): the Tiering child workflow
// classifies the case, the Quota child checks the subscription, an uncovered case waits
// for payment, and then the case is active.
const (
	PhaseTiering         = "tiering"
	PhaseQuota           = "quota"
	PhaseAwaitingPayment = "awaiting_payment"
	PhaseActive          = "active"
)

// Case statuses. A case is open while it works or waits for the client's next message;
// waiting_user when the escalation ladder asked the client a question; paused_support
// when a support ticket holds it.
const (
	StatusOpen          = "open"
	StatusWaitingUser   = "waiting_user"
	StatusPausedSupport = "paused_support"
	StatusClosed        = "closed"
)

// What a case waits on, in its WaitingOn search attribute. A case that waits for
// nothing (the client may write at any time) has none.
const (
	WaitingOnAgent   = "agent"
	WaitingOnUser    = "user"
	WaitingOnPayment = "payment"
	WaitingOnSupport = "support"
)

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

// Application error types. Activities and workflows return them with
// temporal.NewApplicationError so that retry policies and the API can tell failures apart.
const (
	// ErrInvalidArgs marks bad input to an activity; it is never retried.
	ErrInvalidArgs = "InvalidArgs"
	// ErrModelRejected marks a request the model endpoint refused (400, 401, 403, ...);
	// sending it again cannot succeed.
	ErrModelRejected = "ModelRejected"
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
)

// CaseWorkflowID is the ID of the Case workflow that runs case caseID.
func CaseWorkflowID(caseID string) string { return "case:" + caseID }

// TieringWorkflowID is the ID of the Tiering child workflow's attempt n for a case.
func TieringWorkflowID(caseID string, n int) string {
	return fmt.Sprintf("case:%s:tiering:%d", caseID, n)
}

// QuotaWorkflowID is the ID of a case's Quota child workflow.
func QuotaWorkflowID(caseID string) string { return "case:" + caseID + ":quota" }

// DraftWorkflowID is the ID of the Draft workflow that renders one revision of a draft.
func DraftWorkflowID(caseID, name string, revision int) string {
	return fmt.Sprintf("case:%s:draft:%s:rev-%d", caseID, name, revision)
}

// TicketWorkflowID is the ID of the SupportTicket workflow of a case's escalation n.
func TicketWorkflowID(caseID string, n int) string {
	return fmt.Sprintf("case:%s:ticket:%d", caseID, n)
}

// TurnTicketWorkflowID is the ID of the SupportTicket workflow that the model's own
// create_support_ticket call starts in a turn.
func TurnTicketWorkflowID(turnID string) string { return turnID + ":ticket" }

// TurnWorkflowID is the ID of the ChatTurn child workflow for turn n of case caseID.
func TurnWorkflowID(caseID string, n int) string { return fmt.Sprintf("case:%s:turn:%d", caseID, n) }
