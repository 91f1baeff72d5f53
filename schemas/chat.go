package schemas

// Bounds of POST /v1/chat.
const (
	// MaxChatTools bounds the tools one chat message names.
	MaxChatTools = 3
	// MaxToolContextChars bounds an admin's tool_context, in characters.
	MaxToolContextChars = 32 << 10
)

// Chat is POST /v1/chat's message as the Chat workflow takes it, Sanctum's stateless
// /llm/chat: no case, the named Tools (registry names, each one a caller may run
// without a case) run before the one model call with the message as their query, an
// admin's ToolContext (Sanctum's decrypted context) read beside their results, the
// answer in Language, charged to Tenant's model-token budget.
type Chat struct {
	// ID names the message: its workflow ID and the folder of tool results too
	// large to travel in the run (ChatResultFolder).
	ID          string   `json:"id"`
	Message     string   `json:"message"`
	Tools       []string `json:"tools,omitempty"`
	ToolContext string   `json:"tool_context,omitempty"`
	Language    string   `json:"language"`
	Tenant      string   `json:"tenant"`
}

// ChatAnswer is Sanctum's /llm/chat answer: the model's message, the model and its
// provider, and the tools that ran, with the tokens the answer took.
type ChatAnswer struct {
	Message   string     `json:"message"`
	Model     string     `json:"model"`
	Provider  string     `json:"provider"`
	ToolsUsed []ToolUse  `json:"tools_used"`
	Usage     TokenUsage `json:"usage"`
}

// chatPrefix starts the workflow IDs of POST /v1/chat.
const chatPrefix = "chat:"

// ChatWorkflowID is the ID of one chat message (id, a UUID) of tenant (a TenantKey),
// which its payloads are sealed for (see TenantOfWorkflow).
func ChatWorkflowID(tenant, id string) string { return chatPrefix + tenant + ":" + id }

// ChatResultFolder is the blob folder where chat message id's tools keep results too
// large to travel in the run; the API deletes it once the chat has answered.
func ChatResultFolder(id string) string { return "chats/" + id + "/" }
