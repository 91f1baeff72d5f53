package schemas

import "encoding/json"

// ModelRole is what a model is asked to be: each role has its system prompt, and the
// assistant and reasoner roles each their endpoint.
type ModelRole string

// Model roles.
const (
	ModelAssistant ModelRole = "assistant"
	ModelReasoner  ModelRole = "reasoner"
	// ModelTiering classifies a case; the assistant's endpoint serves it.
	ModelTiering ModelRole = "tiering"
	// ModelEscalation advises on a failed tool; the reasoner's endpoint serves it.
	ModelEscalation ModelRole = "escalation"
	// ModelQuery answers POST /v1/query from the sources it is given; the assistant's
	// endpoint serves it.
	ModelQuery ModelRole = "query"
	// ModelDocument summarizes an uploaded document from its pseudonymized text; the
	// assistant's endpoint serves it.
	ModelDocument ModelRole = "document"
	// ModelToolArgs writes one tool's arguments from a natural-language question
	// (Sanctum's {tool_id, query}); the assistant's endpoint serves it.
	ModelToolArgs ModelRole = "tool_args"
	// ModelChat answers POST /v1/chat from the results of the tools it names; the
	// assistant's endpoint serves it.
	ModelChat ModelRole = "chat"
	// ModelMemory proposes, from a closed case, facts about its client worth
	// remembering across cases; the assistant's endpoint serves it.
	ModelMemory ModelRole = "memory"
)

// Endpoint is the role whose model endpoint serves r.
func (r ModelRole) Endpoint() ModelRole {
	switch r {
	case ModelTiering, ModelQuery, ModelDocument, ModelToolArgs, ModelChat,
		ModelMemory:
		return ModelAssistant
	case ModelEscalation:
		return ModelReasoner
	}
	return r
}

// Chat message roles, as the chat-completions wire format names them.
const (
	MsgSystem    = "system"
	MsgUser      = "user"
	MsgAssistant = "assistant"
	MsgTool      = "tool"
)

// ChatMessage is one message of a turn's conversation with the model.
type ChatMessage struct {
	Role       string     `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Echo is what the model's provider asked to be sent back with this assistant
	// message (DeepSeek's reasoning_content, Gemini's thought signatures), as
	// ModelResponse.Echo gave it: opaque, resent by llm only to the provider that
	// wrote it, and never shown to the client.
	Echo json.RawMessage `json:"echo,omitempty"`
}

// ToolCall is a model's request to run a tool. Arguments is the JSON text the model wrote.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ModelRequest asks a model role for the next step of a turn. The worker adds the system
// prompt and the case's earlier turns from the store, so history stays out of payloads.
type ModelRequest struct {
	Role     ModelRole     `json:"role"`
	CaseID   string        `json:"case_id"`
	TurnNo   int           `json:"turn_no"`
	Language string        `json:"language"`
	Messages []ChatMessage `json:"messages"`
	// Tools names the tools the model may call; empty means it must answer in text.
	Tools []string `json:"tools,omitempty"`
	// LegalToolsOff asks for the anti-hallucination warning: every primary legal
	// tool is off for this turn.
	LegalToolsOff bool `json:"legal_tools_off,omitempty"`
	// UserID, OrgID, UseMemory and UseRAG select the context sources of the system
	// prompt (the memory is the user's of that organization);
	// Query is what retrieval over earlier turns looks for.
	UserID    string `json:"user_id,omitempty"`
	OrgID     string `json:"org_id,omitempty"`
	UseMemory bool   `json:"use_memory,omitempty"`
	UseRAG    bool   `json:"use_rag,omitempty"`
	Query     string `json:"query,omitempty"`
	// Tenant is charged for a call outside any case's workflow (a POST /v1/query), a
	// TenantKey; a case's calls are charged to the case and its tenant.
	Tenant string `json:"tenant,omitempty"`
}

// ModelResponse is the model's next step: tool calls, or a final answer in Content.
type ModelResponse struct {
	Content      string     `json:"content"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	FinishReason string     `json:"finish_reason"`
	Model        string     `json:"model"`
	// Provider is the kind of endpoint that answered (llm.Provider: openai, gemini,
	// ollama, ..., generic), as Sanctum's answers name it.
	Provider string     `json:"provider,omitempty"`
	Usage    TokenUsage `json:"usage"`
	// Echo is what the provider wants back with the assistant message that carries
	// this reply (see ChatMessage.Echo); empty when it wants nothing.
	Echo json.RawMessage `json:"echo,omitempty"`
}

// The assistant model's context size, in tokens, from which the budgets of what a
// model call reads are worked out (LEXFLOW_ASSISTANT_CONTEXT_TOKENS).
const (
	// DefaultContextTokens is the size when the deployment does not say: small
	// enough for the models a single machine serves, which is where budgets matter
	// most.
	DefaultContextTokens = 32768
	// MinContextTokens is the smallest size budgets are worked out for.
	MinContextTokens = 4096
)
