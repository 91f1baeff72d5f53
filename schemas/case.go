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
}

// CaseResult is what a Case workflow returns when it ends.
type CaseResult struct {
	State CaseState `json:"state"`
}

// SendMessageRequest is the argument of the send-message update.
type SendMessageRequest struct {
	Message string `json:"message"`
}

// ChatTurnInput starts one ChatTurn child workflow.
type ChatTurnInput struct {
	CaseID   string `json:"case_id"`
	UserID   string `json:"user_id"`
	TurnID   string `json:"turn_id"`
	TurnNo   int    `json:"turn_no"`
	Message  string `json:"message"`
	Language string `json:"language"`
	MaxSteps int    `json:"max_steps"`
}

// TurnResult answers one chat turn.
type TurnResult struct {
	TurnID    string    `json:"turn_id"`
	Reply     string    `json:"reply"`
	ToolsUsed []ToolUse `json:"tools_used"`
	Sources   []Source  `json:"sources"`
	Phase     string    `json:"phase"`
	Steps     int       `json:"steps"`
}

// ToolUse reports one tool call made during a turn.
type ToolUse struct {
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	Status    string          `json:"status"`
	LatencyMS int64           `json:"latency_ms"`
	Summary   string          `json:"summary,omitempty"`
	Error     string          `json:"error,omitempty"`
}

// Tool call statuses reported in ToolUse.
const (
	ToolOK     = "ok"
	ToolFailed = "error"
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
