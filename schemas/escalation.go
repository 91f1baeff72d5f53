package schemas

import (
	"encoding/json"
	"time"
)

// Rungs of the escalation ladder, in order. Each tool's policy says how far up it goes.
const (
	// RungReasoner: the tool's retries ran out and the reasoner was consulted.
	RungReasoner = "reasoner"
	// RungAdvice: the reasoner's advice was followed, once.
	RungAdvice = "advice"
	// RungAskUser: the client was asked, and the case waits for an answer.
	RungAskUser = "ask_user"
	// RungTicket: a support ticket was opened and the case is paused.
	RungTicket = "ticket"
)

// Escalation is a tool failure on its way up the ladder.
type Escalation struct {
	// N numbers the case's escalations from 1; it names the escalation's ticket.
	N      int             `json:"n"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
	Error  string          `json:"error"`
	Rung   string          `json:"rung"`
	Advice string          `json:"advice,omitempty"`
	// Question is what the client was asked.
	Question string `json:"question,omitempty"`
	// Message is the client's message of the turn that escalated, for a retry.
	Message string `json:"message,omitempty"`
	// WaitUntil is when an unanswered question turns into a ticket.
	WaitUntil time.Time `json:"wait_until,omitzero"`
	TicketID  string    `json:"ticket_id,omitempty"`
	// Selection is the escalated turn's, for a retry.
	Selection Selection `json:"selection"`
}

// RungAnswer marks the retry of a failed tool after the client answered its question.
const RungAnswer = "answer"

// Advice is the reasoner's answer when consulted about a failed tool: retry the tool
// with (corrected) arguments, call another tool, or ask the client.
type Advice struct {
	Action   string         `json:"action"`
	Tool     string         `json:"tool,omitempty"`
	Args     map[string]any `json:"args,omitempty"`
	Question string         `json:"question,omitempty"`
	Reason   string         `json:"reason,omitempty"`
}

// Advice actions.
const (
	AdviceRetry   = "retry"
	AdviceUseTool = "use_tool"
	AdviceAskUser = "ask_user"
)

// ConsultReasonerResult is consult_reasoner's return shape (seed 003's consult_grok).
type ConsultReasonerResult struct {
	Status       string `json:"status"`
	Response     string `json:"response,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// ConsultPurposeEscalation asks consult_reasoner for advice on a failed tool, in the
// escalation prompt's JSON, instead of the reasoner's free answer.
const ConsultPurposeEscalation = "escalation"

// MaxEscalationRecords is how many escalation attempts case_details.escalation keeps:
// the latest.
const MaxEscalationRecords = 20

// EscalationAttempt is one rung of a tool failure's ladder as case_details.escalation
// keeps it for support: the technical detail that the client's sentence leaves out.
type EscalationAttempt struct {
	// N is the case's escalation the attempt belongs to.
	N     int       `json:"n"`
	Rung  string    `json:"rung"`
	Tool  string    `json:"tool"`
	Error string    `json:"error"`
	At    time.Time `json:"at"`
	// TicketID is the ticket a ticket rung opened.
	TicketID string `json:"ticket_id,omitempty"`
}

// RecordEscalation is the RecordEscalation activity's input: attempts to append to a
// case's case_details.escalation.
type RecordEscalation struct {
	CaseID   string              `json:"case_id"`
	Attempts []EscalationAttempt `json:"attempts"`
}
