// Package schemas is the contract between Lexflow's processes: task queues, workflow IDs,
// update, signal and query names, status values, error types, and the JSON-tagged payload
// of every workflow, activity, update and tool.
package schemas

import "fmt"

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
)

// Case phases, as ARCHITECTURE.md lays them out. The skeleton moves a case from intake
// straight to active; tiering, quota and payment are added between them later.
const (
	PhaseIntake = "intake"
	PhaseActive = "active"
)

// Case statuses.
const (
	StatusOpen   = "open"
	StatusClosed = "closed"
)

// Languages a case can be conducted in.
var Languages = []string{"en", "ro", "it"}

// Limits shared by the API and the Case workflow's update validator.
const (
	// MaxMessageChars is the longest user message accepted, in characters.
	MaxMessageChars = 8000
	// DefaultMaxSteps is how many model calls a chat turn may make.
	DefaultMaxSteps = 5
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
)

// CaseWorkflowID is the ID of the Case workflow that runs case caseID.
func CaseWorkflowID(caseID string) string { return "case:" + caseID }

// TurnWorkflowID is the ID of the ChatTurn child workflow for turn n of case caseID.
func TurnWorkflowID(caseID string, n int) string { return fmt.Sprintf("case:%s:turn:%d", caseID, n) }
