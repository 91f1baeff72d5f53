package schemas

// Tool names, as the model sees them. The research tools are LEXE's (seed 000),
// legal_sql is seed 003's query_bigquery, and the case tools are seed 003's.
const (
	ToolNormattivaSearch    = "normattiva_search"
	ToolEurlexSearch        = "eurlex_search"
	ToolInfolexSearch       = "infolex_search"
	ToolKBSearch            = "kb_search"
	ToolLegislationSearch   = "legislation_search"
	ToolLexSearch           = "lex_search"
	ToolLexSearchEnriched   = "lex_search_enriched"
	ToolWebSearch           = "web_search"
	ToolLegalSQL            = "legal_sql"
	ToolGetCaseDetails      = "get_case_details"
	ToolUpdateCaseDetails   = "update_case_details"
	ToolGetPartyIDByName    = "get_party_id_by_name"
	ToolGenerateDraftPDF    = "generate_draft_pdf"
	ToolCheckQuota          = "check_quota"
	ToolCreateSupportTicket = "create_support_ticket"
	ToolConsultReasoner     = "consult_reasoner"
	ToolListDocuments       = "list_documents"
	ToolReadDocument        = "read_document"
	ToolReadLegalText       = "read_legal_text"
)

// GetCaseDetailsArgs are get_case_details' arguments (seed 003).
type GetCaseDetailsArgs struct {
	CaseID string `json:"case_id"`
	// Path, when set, reads one part of case_details in dot notation ("facts",
	// "legal_research.legislation", "facts.3" for a list's item), as
	// update_case_details writes them.
	Path string `json:"path,omitempty"`
}

// UpdateCaseDetailsArgs are update_case_details' arguments (seed 003).
type UpdateCaseDetailsArgs struct {
	CaseID  string         `json:"case_id"`
	Updates map[string]any `json:"updates"`
	// ExpectedVersion, when set, refuses the update if case_details moved past it.
	ExpectedVersion int64 `json:"expected_version,omitempty"`
	// System marks a workflow's own update, which may write SystemFields. The tool's
	// schema has no such argument, so a model's call never sets it.
	System bool `json:"system,omitempty" tool:"-"`
}

// SystemFields are the case_details fields that Lexflow writes and the model's tools
// may not: a prompt-injected model must not forge a draft (whose record names a PDF), a
// tier, a payment, support's log, an escalation or when the details last changed.
var SystemFields = []string{"draft_status", "tier", "payment", "support_log", "escalation", DocumentsField,
	LastUpdatedField}

// LastUpdatedField is the case_details field that holds when they were last written
// (seed 003's case_details.last_updated). The store sets it from its clock on every
// write, creation included; no caller, the workflows included, may write it.
const LastUpdatedField = "last_updated"

// How many results web_search returns: its max_results, 1 to MaxWebResults, and
// DefaultWebResults (Edison's default) when the model sets none.
const (
	MaxWebResults     = 10
	DefaultWebResults = 5
)

// Arguments of each tool, agreeing with schemas/tools/<name>.json (tested).
type (
	WebSearchArgs struct {
		Query    string `json:"query"`
		Language string `json:"language,omitempty"`
		// MaxResults is how many results to return, 1 to MaxWebResults;
		// DefaultWebResults when 0.
		MaxResults int `json:"max_results,omitempty"`
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
		// Jurisdiction narrows the decisions to one country's courts: ro, it, or
		// all (the default).
		Jurisdiction string `json:"jurisdiction,omitempty"`
	}
	// LegislationSearchArgs are legislation_search's arguments: a question in the
	// client's words, within a jurisdiction (ro, it, eu or all, the default) and
	// optionally one act.
	LegislationSearchArgs struct {
		Query        string `json:"query"`
		Jurisdiction string `json:"jurisdiction,omitempty"`
		Act          string `json:"act,omitempty"`
		TopK         int    `json:"top_k,omitempty"`
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
	ListDocumentsArgs struct {
		CaseID string `json:"case_id"`
	}
	ReadDocumentArgs struct {
		CaseID     string `json:"case_id"`
		DocumentID string `json:"document_id"`
		FromPage   int    `json:"from_page"`
		ToPage     int    `json:"to_page"`
	}
	// ReadLegalTextArgs reads page Page (from 1; 0 reads the first) of the text of
	// DocID.
	ReadLegalTextArgs struct {
		DocID string `json:"doc_id"`
		Page  int    `json:"page"`
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
		// Escalation is the failed call the ladder asks about, with the escalation
		// purpose: the activity publishes the rung's escalation event from it.
		Escalation *Escalation `json:"escalation,omitempty" tool:"-"`
	}
)
