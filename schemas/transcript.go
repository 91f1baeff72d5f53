package schemas

import "time"

// RecordUserMessage stores the user's message at the start of a turn.
type RecordUserMessage struct {
	CaseID  string    `json:"case_id"`
	UserID  string    `json:"user_id"`
	TurnID  string    `json:"turn_id"`
	TurnNo  int       `json:"turn_no"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
	// RequestID is the request that started the turn, for its turn.started event.
	RequestID string `json:"request_id,omitempty"`
}

// RecordTurn stores the tool records and the assistant's answer at the end of a turn.
type RecordTurn struct {
	CaseID string     `json:"case_id"`
	UserID string     `json:"user_id"`
	TurnNo int        `json:"turn_no"`
	Result TurnResult `json:"result"`
	// Shown is the text the model read of each of Result.ToolsUsed, in order
	// (ToolUse.Shown); a call with none keeps its summary.
	Shown []string  `json:"shown,omitempty"`
	At    time.Time `json:"at"`
}

// RecordTurnFailed is a failed turn, to be published as turn.failed.
type RecordTurnFailed struct {
	TurnID string `json:"turn_id"`
	Reason string `json:"reason"`
}

// Notice is a line the case writes into the transcript outside a chat turn: the answer
// of a phase, a rung of the ladder, or a support action.
type Notice struct {
	CaseID string `json:"case_id"`
	UserID string `json:"user_id"`
	// N numbers the case's notices; it makes the record's ID.
	N int `json:"n"`
	// TurnNo is the turn the notice follows, so the transcript keeps its order.
	TurnNo int        `json:"turn_no"`
	Role   RecordRole `json:"role"`
	Text   string     `json:"text"`
	At     time.Time  `json:"at"`
}

// RecordRole is whom a transcript record speaks for.
type RecordRole string

// Record roles.
const (
	RecordUser      RecordRole = "user"
	RecordAssistant RecordRole = "assistant"
	RecordTool      RecordRole = "tool"
	// RecordSupport marks what support staff did to a case: a ticket, a resumption.
	RecordSupport RecordRole = "support"
)
