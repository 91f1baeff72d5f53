package schemas

// More tool names. The research tools are LEXE's (seed 000) and legal_sql is seed 003's
// query_bigquery; the case tools are seed 003's.
const (
	ToolWebSearch           = "web_search"
	ToolNormattivaSearch    = "normattiva_search"
	ToolEurlexSearch        = "eurlex_search"
	ToolInfolexSearch       = "infolex_search"
	ToolKBSearch            = "kb_search"
	ToolLexSearch           = "lex_search"
	ToolLexSearchEnriched   = "lex_search_enriched"
	ToolLegalSQL            = "legal_sql"
	ToolGetPartyIDByName    = "get_party_id_by_name"
	ToolGenerateDraftPDF    = "generate_draft_pdf"
	ToolCheckQuota          = "check_quota"
	ToolCreateSupportTicket = "create_support_ticket"
	ToolConsultReasoner     = "consult_reasoner"
)

// Arguments of each tool, agreeing with schemas/tools/<name>.json (tested).
type (
	WebSearchArgs struct {
		Query    string `json:"query"`
		Language string `json:"language,omitempty"`
	}
	NormattivaSearchArgs struct {
		ActType   string `json:"act_type"`
		Date      string `json:"date,omitempty"`
		ActNumber string `json:"act_number,omitempty"`
		Article   string `json:"article,omitempty"`
	}
	EurlexSearchArgs struct {
		ActType  string `json:"act_type"`
		Year     int    `json:"year"`
		Number   int    `json:"number"`
		Article  string `json:"article,omitempty"`
		Language string `json:"language,omitempty"`
	}
	InfolexSearchArgs struct {
		ActType        string `json:"act_type"`
		Article        string `json:"article"`
		IncludeMassime bool   `json:"include_massime"`
	}
	KBSearchArgs struct {
		Query   string `json:"query"`
		TopK    int    `json:"top_k"`
		Materia string `json:"materia,omitempty"`
	}
	LexSearchArgs struct {
		Query    string `json:"query"`
		Language string `json:"language,omitempty"`
	}
	LexSearchEnrichedArgs struct {
		Query    string `json:"query"`
		Language string `json:"language,omitempty"`
	}
	LegalSQLArgs struct {
		QueryString string `json:"query_string"`
		TableName   string `json:"table_name"`
	}
	GetPartyIDByNameArgs struct {
		CaseID        string `json:"case_id"`
		MentionedName string `json:"mentioned_name"`
	}
	GenerateDraftPDFArgs struct {
		CaseID          string `json:"case_id"`
		MarkdownContent string `json:"markdown_content"`
		DraftName       string `json:"draft_name"`
		Revision        int    `json:"revision"`
	}
	CheckQuotaArgs struct {
		UserID         string  `json:"user_id"`
		OrganizationID *string `json:"organization_id"`
		Tier           int     `json:"tier"`
	}
	CreateSupportTicketArgs struct {
		CaseID             string         `json:"case_id"`
		IssueDescription   string         `json:"issue_description"`
		AgentStateSnapshot map[string]any `json:"agent_state_snapshot,omitempty"`
	}
	ConsultReasonerArgs struct {
		CaseID           string `json:"case_id"`
		ContextSummary   string `json:"context_summary"`
		SpecificQuestion string `json:"specific_question"`
		// Language and Purpose are the case's, set by the workflow, never by the model.
		Language string `json:"language,omitempty" tool:"-"`
		Purpose  string `json:"purpose,omitempty" tool:"-"`
	}
)

// LegalSQLResult is legal_sql's return shape (seed 003's query_bigquery):
// {"status": "success", "results": [...]} or {"status": "error", "error_message": "..."}.
type LegalSQLResult struct {
	Status       string           `json:"status"`
	Results      []map[string]any `json:"results,omitempty"`
	Truncated    bool             `json:"truncated,omitempty"`
	ErrorMessage string           `json:"error_message,omitempty"`
}

// Result shapes of the research tools, LEXE's (seed 000), with the corpus's document
// ID and URL added so that answers can cite them.
type (
	NormattivaResult struct {
		Text     string `json:"text"`
		URN      string `json:"urn,omitempty"`
		Vigente  bool   `json:"vigente"`
		Title    string `json:"title,omitempty"`
		ActTitle string `json:"act_title,omitempty"`
		DocID    string `json:"doc_id,omitempty"`
		URL      string `json:"url,omitempty"`
	}
	EurlexResult struct {
		Text         string `json:"text"`
		Title        string `json:"title,omitempty"`
		CELEX        string `json:"celex,omitempty"`
		ArticleTitle string `json:"article_title,omitempty"`
		DocID        string `json:"doc_id,omitempty"`
		URL          string `json:"url,omitempty"`
	}
	InfolexResult struct {
		ArticleText string    `json:"article_text"`
		Spiegazione string    `json:"spiegazione"`
		Massime     []Massima `json:"massime"`
		DocID       string    `json:"doc_id,omitempty"`
	}
	Massima struct {
		Autorita string `json:"autorita"`
		Testo    string `json:"testo"`
		DocID    string `json:"doc_id,omitempty"`
	}
	KBSearchResult struct {
		Results []KBHit `json:"results"`
		Meta    KBMeta  `json:"meta"`
	}
	KBHit struct {
		Riferimento string  `json:"riferimento"`
		ID          string  `json:"id"`
		Testo       string  `json:"testo"`
		Materia     string  `json:"materia,omitempty"`
		RRFScore    float64 `json:"rrf_score"`
		Score       float64 `json:"score"`
		URL         string  `json:"url,omitempty"`
	}
	KBMeta struct {
		LatencyMS int64  `json:"latency_ms"`
		Source    string `json:"source"`
	}
	WebSearchResult struct {
		Success bool        `json:"success"`
		Query   string      `json:"query"`
		Results []WebResult `json:"results"`
	}
	WebResult struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	}
	LexSearchResult struct {
		Results []WebResult `json:"results"`
		Meta    KBMeta      `json:"meta"`
	}
	// EnrichedAnalysis is lex_search_enriched's shape A: an analysis text.
	EnrichedAnalysis struct {
		Analysis   string      `json:"analysis"`
		References []Reference `json:"references"`
		Meta       KBMeta      `json:"meta"`
	}
	// EnrichedResults is lex_search_enriched's shape B: results, each with the in-force
	// status of the references it makes.
	EnrichedResults struct {
		Results         []EnrichedResult `json:"results"`
		EnrichedResults string           `json:"enriched_results"`
		References      []Reference      `json:"references"`
	}
	EnrichedResult struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
		Vigenza string `json:"vigenza,omitempty"`
	}
	// Reference is a legal reference found in search results, checked in the corpus.
	Reference struct {
		Text     string `json:"text"`
		Verified bool   `json:"verified"`
		InForce  bool   `json:"in_force"`
		DocID    string `json:"doc_id,omitempty"`
	}
	// ToolFailure is LEXE's executor failure shape.
	ToolFailure struct {
		Success bool   `json:"success"`
		Error   string `json:"error"`
	}
)

// PartyIDResult is get_party_id_by_name's return shape (seed 003):
// {"status": "success", "partyId": "party0"},
// {"status": "not_found", "message": "Party reference not found in case context."}, or
// {"status": "error", "error_message": "..."}.
type PartyIDResult struct {
	Status       string `json:"status"`
	PartyID      string `json:"partyId,omitempty"`
	Message      string `json:"message,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// PartyNotFound is seed 003's message for a name that matches no party of the case.
const PartyNotFound = "Party reference not found in case context."
