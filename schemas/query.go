package schemas

// Bounds of POST /v1/query.
const (
	// MaxQuestionChars bounds a question, in characters.
	MaxQuestionChars = 4000
	// DefaultQueryTopK and MaxQueryTopK are how many knowledge-base results a query
	// reads unless it says, and at most.
	DefaultQueryTopK = 5
	MaxQueryTopK     = 20
)

// Query is POST /v1/query's question as the Query workflow takes it: answered from
// the corpus, in Language, with a web search suggested (never run) when WebHints is
// on, charged to Tenant's model-token budget.
type Query struct {
	Question string `json:"question"`
	Language string `json:"language"`
	TopK     int    `json:"top_k"`
	WebHints bool   `json:"web_hints,omitempty"`
	Tenant   string `json:"tenant"`
}

// QueryAnswer is Sanctum's /query answer: the answer, with its legal citations marked
// as a turn's are; the sources it was given; questions that would let it answer
// better; and, when web hints are on and live web data would help, a search_term for
// the client to show or to run as a chat turn with web_search on.
type QueryAnswer struct {
	Answer              string        `json:"answer"`
	SearchTerm          string        `json:"search_term,omitempty"`
	Sources             []QuerySource `json:"sources"`
	ClarifyingQuestions []string      `json:"clarifying_questions"`
	Citations           []Citation    `json:"citations"`
	Model               string        `json:"model,omitempty"`
	Provider            string        `json:"provider,omitempty"`
	Usage               TokenUsage    `json:"usage"`
}

// QuerySource is one source a query's answer was given: a decision kb_search found, an
// article the question cites, looked up, or an article legislation_search ranked.
type QuerySource struct {
	// Tool is the research tool that reads the same source: kb_search,
	// legislation_search, normattiva_search or eurlex_search.
	Tool      string `json:"tool"`
	Reference string `json:"reference"`
	DocID     string `json:"doc_id,omitempty"`
	URL       string `json:"url,omitempty"`
	Excerpt   string `json:"excerpt"`
}

// Retrieval asks the Retrieve activity for a question's sources.
type Retrieval struct {
	Question string `json:"question"`
	Language string `json:"language"`
	TopK     int    `json:"top_k"`
}

// queryPrefix starts the workflow IDs of POST /v1/query.
const queryPrefix = "query:"

// QueryWorkflowID is the ID of one query (id, a UUID) of tenant (a TenantKey), which
// its payloads are sealed for (see TenantOfWorkflow).
func QueryWorkflowID(tenant, id string) string { return queryPrefix + tenant + ":" + id }
