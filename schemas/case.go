package schemas

import (
	"encoding/json"
	"time"
)

// CaseInput starts a Case workflow, or continues one as new.
type CaseInput struct {
	CaseID   string `json:"case_id"`
	UserID   string `json:"user_id"`
	OrgID    string `json:"org_id,omitempty"`
	Language string `json:"language"`
	// MaxSteps bounds each chat turn's tool loop; it is fixed when the case starts so
	// that a deployment's setting cannot change a running case's history.
	MaxSteps int `json:"max_steps"`
	// Description is what the client wrote when opening the case; tiering reads it.
	Description string `json:"description"`
	// UserWait is how long the case waits for the client's answer to the escalation
	// ladder's question before it opens a support ticket.
	UserWait time.Duration `json:"user_wait"`
	// State is carried over by continue-as-new; nil on a new case.
	State *CaseState `json:"state,omitempty"`
}

// CaseState is the Case workflow's state, answered by the state query.
type CaseState struct {
	CaseID   string `json:"case_id"`
	UserID   string `json:"user_id"`
	Phase    string `json:"phase"`
	Status   string `json:"status"`
	Turns    int    `json:"turns"`
	Busy     bool   `json:"busy"`
	LastTurn string `json:"last_turn,omitempty"`
	// Runs counts continue-as-new generations, starting at 1.
	Runs int `json:"runs"`
	// Tier and its justification, once tiering decided.
	Tier          int    `json:"tier,omitempty"`
	Justification string `json:"justification,omitempty"`
	// Question is tiering's clarifying question while it waits for the answer.
	Question string `json:"question,omitempty"`
	// Asked is set once tiering asked its one question.
	Asked bool `json:"asked,omitempty"`
	// Payment is the confirmed payment of a case no subscription covered.
	Payment *PaymentConfirmed `json:"payment,omitempty"`
	// WaitingOn says what the case waits for (WaitingOn* values; empty for nothing),
	// since ProgressAt.
	WaitingOn  string    `json:"waiting_on,omitempty"`
	ProgressAt time.Time `json:"progress_at"`
	// Escalation is the tool failure on the ladder, while the case waits for the client
	// or for support.
	Escalation *Escalation `json:"escalation,omitempty"`
	// Escalations counts the case's escalations; Notices its transcript notices.
	Escalations int `json:"escalations"`
	Notices     int `json:"notices"`
	// Tickets are the IDs of the case's support tickets.
	Tickets []string `json:"tickets,omitempty"`
	// LastResume is support's latest resumption.
	LastResume *Resume `json:"last_resume,omitempty"`
	// Settled are the stamps (Signal.At in Unix nanoseconds) of the latest signals the
	// case has handled, newest last, for the settle update.
	Settled []int64 `json:"settled,omitempty"`
}

// MaxSettled is how many handled signals CaseState.Settled remembers.
const MaxSettled = 16

// CancelTurnResult answers the cancel-turn update.
type CancelTurnResult struct {
	TurnID string `json:"turn_id"`
}

// CaseResult is what a Case workflow returns when it ends.
type CaseResult struct {
	State CaseState `json:"state"`
}

// SendMessageRequest is the argument of the send-message update.
type SendMessageRequest struct {
	Message string `json:"message"`
	// Selection says which tools and context sources the turn uses; the API resolves
	// it from the request's toggles, the defaults and the caller's roles.
	Selection Selection `json:"selection"`
}

// Selection is the tools and context sources switched on for one turn.
type Selection struct {
	// Tools names the tools on, in registry order.
	Tools []string `json:"tools"`
	// UseMemory injects the user's memory into the system prompt.
	UseMemory bool `json:"use_memory_retrieval"`
	// UseRAG injects the case's relevant earlier turns into the system prompt.
	UseRAG bool `json:"use_rag_v3_retrieval"`
}

// ChatTurnInput starts one ChatTurn child workflow.
type ChatTurnInput struct {
	CaseID   string `json:"case_id"`
	UserID   string `json:"user_id"`
	OrgID    string `json:"org_id,omitempty"`
	TurnID   string `json:"turn_id"`
	TurnNo   int    `json:"turn_no"`
	Message  string `json:"message"`
	Language string `json:"language"`
	MaxSteps int    `json:"max_steps"`
	// Selection is the turn's tools and context sources.
	Selection Selection `json:"selection"`
	// Pending is the escalation whose question the client's message answers: the turn
	// first tries the failed tool again.
	Pending *Escalation `json:"pending,omitempty"`
	// EscalationN numbers an escalation this turn starts.
	EscalationN int `json:"escalation_n"`
}

// TurnResult answers one chat turn.
type TurnResult struct {
	TurnID    string    `json:"turn_id"`
	Reply     string    `json:"reply"`
	ToolsUsed []ToolUse `json:"tools_used"`
	Sources   []Source  `json:"sources"`
	Phase     string    `json:"phase"`
	Steps     int       `json:"steps"`
	// Cancelled is set when the turn was cancelled between steps.
	Cancelled bool `json:"cancelled,omitempty"`
	// Citations are the legal citations of the reply, each checked against the corpus.
	Citations []Citation `json:"citations"`
	// Tier is set on the answers of the tiering phase.
	Tier int `json:"tier,omitempty"`
	// Status is the case's status after the turn.
	Status string `json:"status,omitempty"`
	// Escalation is set when a tool failure climbed the ladder to the client or to a
	// support ticket.
	Escalation *Escalation `json:"escalation,omitempty"`
}

// Citation is a legal citation of a reply and whether the corpus holds what it cites.
type Citation struct {
	Text     string `json:"text"`
	Verified bool   `json:"verified"`
	DocID    string `json:"doc_id,omitempty"`
	URL      string `json:"url,omitempty"`
}

// CheckCitations asks for the citations of a reply to be checked.
type CheckCitations struct {
	Reply    string `json:"reply"`
	Language string `json:"language"`
}

// CheckedReply is the reply with every unverified citation marked, and its citations.
type CheckedReply struct {
	Reply     string     `json:"reply"`
	Citations []Citation `json:"citations"`
}

// ToolUse reports one tool call made during a turn.
type ToolUse struct {
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	Status    string          `json:"status"`
	LatencyMS int64           `json:"latency_ms"`
	Summary   string          `json:"summary,omitempty"`
	Error     string          `json:"error,omitempty"`
	// Dropped lists the unknown arguments removed before the call.
	Dropped []string `json:"dropped_args,omitempty"`
	// Rung is the escalation rung the call was made on: the call the reasoner advised,
	// or the retry after the client's answer.
	Rung string `json:"rung,omitempty"`
}

// Tool call statuses reported in ToolUse.
const (
	ToolOK     = "ok"
	ToolFailed = "error"
	// ToolInvalid marks a call whose arguments failed validation; it did not run.
	ToolInvalid = "invalid"
)

// Source is a tool result that the turn's answer drew on.
type Source struct {
	Tool    string `json:"tool"`
	Summary string `json:"summary"`
}

// RecordUserMessage stores the user's message at the start of a turn.
type RecordUserMessage struct {
	CaseID  string    `json:"case_id"`
	UserID  string    `json:"user_id"`
	TurnID  string    `json:"turn_id"`
	TurnNo  int       `json:"turn_no"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// RecordTurn stores the tool records and the assistant's answer at the end of a turn.
type RecordTurn struct {
	CaseID string     `json:"case_id"`
	UserID string     `json:"user_id"`
	TurnNo int        `json:"turn_no"`
	Result TurnResult `json:"result"`
	At     time.Time  `json:"at"`
}

// SetCasePhase moves a case to a phase and status in the store.
type SetCasePhase struct {
	CaseID string `json:"case_id"`
	Phase  string `json:"phase"`
	Status string `json:"status"`
}
