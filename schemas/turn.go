package schemas

import (
	"encoding/json"
	"time"
)

// SendMessageRequest is the argument of the send-message update.
type SendMessageRequest struct {
	Message string `json:"message"`
	// Selection says which tools and context sources the turn uses; the API resolves
	// it from the request's toggles, the defaults and the caller's roles.
	Selection Selection `json:"selection"`
	// IdempotencyKey, set by the API from the request's Idempotency-Key header, makes
	// the message start at most one turn (see CaseState.Keyed).
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	// RequestID is the API's update ID, which the turn's turn.started event carries so
	// that a streaming request finds its turn in the case's event log.
	RequestID string `json:"request_id,omitempty"`
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
	// Timeout is the turn's deadline, from its start: past it the turn stops what it
	// is waiting for and ends with what it has. 0 means DefaultTurnTimeout.
	Timeout time.Duration `json:"timeout,omitempty"`
	// MaxArgsBytes bounds a tool call's JSON arguments (MaxToolArgsBytes for turns
	// started since it exists; 0, no bound, for the turns before).
	MaxArgsBytes int `json:"max_args_bytes,omitempty"`
	// RequestID is the request that started the turn (SendMessageRequest.RequestID).
	RequestID string `json:"request_id,omitempty"`
}

// MaxToolArgsBytes bounds one tool call's JSON arguments: the longest legitimate
// ones, a draft's content, fit well inside it.
const MaxToolArgsBytes = 64 << 10

// DefaultTurnTimeout is a turn's deadline unless LEXFLOW_TURN_TIMEOUT says otherwise.
const DefaultTurnTimeout = 10 * time.Minute

// TurnResult answers one chat turn.
type TurnResult struct {
	TurnID    string    `json:"turn_id"`
	Reply     string    `json:"reply"`
	ToolsUsed []ToolUse `json:"tools_used"`
	Sources   []Source  `json:"sources"`
	Phase     string    `json:"phase"`
	Steps     int       `json:"steps"`
	// Model and Provider are the model that wrote the turn's last step and the kind
	// of endpoint serving it (ModelResponse.Provider), as Sanctum's answers carry
	// them; empty when no model was called.
	Model    string `json:"model,omitempty"`
	Provider string `json:"provider,omitempty"`
	// Cancelled is set when the turn was cancelled; TimedOut when it reached its
	// deadline. Either way the turn stopped what it was waiting for and ended with
	// what it had.
	Cancelled bool `json:"cancelled,omitempty"`
	TimedOut  bool `json:"timed_out,omitempty"`
	// Citations are the legal citations of the reply, each checked against the corpus.
	Citations []Citation `json:"citations"`
	// Tier is set on the answers of the tiering phase.
	Tier int `json:"tier,omitempty"`
	// Status is the case's status after the turn.
	Status string `json:"status,omitempty"`
	// Escalation is set when a tool failure climbed the ladder to the client or to a
	// support ticket.
	Escalation *Escalation `json:"escalation,omitempty"`
	// Budget is set when the model-token budget ran out during the turn: the turn
	// ended with what it had, and the case waits on its budget.
	Budget *BudgetExhausted `json:"budget,omitempty"`
	// Repeated is set, with only TurnID, Phase and Status, when the message's
	// idempotency key started TurnID earlier: the API answers with that turn's result.
	Repeated bool `json:"repeated,omitempty"`
}

// ToolUse reports one tool call made during a turn. Its JSON carries Sanctum's
// tool_id, tool_name and query too (see MarshalJSON).
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
	// ResultRef is the blob key of a large result's raw form; the model read a bounded
	// text of it.
	ResultRef string `json:"result_ref,omitempty"`
	// Shown is the text the model read of the result, up to its tool's budget, where
	// Summary is cut at 900 characters. It stays inside the turn's workflow, never
	// serialized with the turn's result: RecordTurn.Shown carries it to the transcript,
	// from which later turns' model calls read it.
	Shown string `json:"-"`
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
