package schemas

// GetCaseDetailsResult is get_case_details' return shape: status "success" with
// case_details and the parties' placeholders, or with the path asked for and its
// value; or status "error" with error_message.
type GetCaseDetailsResult struct {
	Status       string             `json:"status"`
	CaseDetails  map[string]any     `json:"case_details,omitempty"`
	Parties      []PartyPlaceholder `json:"parties,omitempty"`
	Path         string             `json:"path,omitempty"`
	Value        any                `json:"value,omitempty"`
	ErrorMessage string             `json:"error_message,omitempty"`
}

// PartyPlaceholder is what get_case_details shows of a party: its ID and the
// placeholders its values fill in drafts, never the values.
type PartyPlaceholder struct {
	PartyID      string   `json:"party_id"`
	Placeholders []string `json:"placeholders"`
}

// StatusResult is the return shape of tools that answer only a status:
// {"status": "success"} or {"status": "error", "error_message": "..."}.
type StatusResult struct {
	Status       string `json:"status"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// CaseNotFound is seed 003's error_message for a case that does not exist.
const CaseNotFound = "Case ID not found"

// Tool result statuses, as seed 003 spells them.
const (
	ResultSuccess = "success"
	ResultError   = "error"
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
		// Jurisdiction is "ro" for a Romanian article, which has no Normattiva URN:
		// it is named by its act and Article, from the Portal Legislativ.
		Jurisdiction string `json:"jurisdiction,omitempty"`
		Article      string `json:"article,omitempty"`
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
	// KBSearchResult is kb_search's answer, LEXE's shape; Note, when set, tells the
	// model why there are no results (a jurisdiction the source holds no decisions of).
	KBSearchResult struct {
		Results []KBHit `json:"results"`
		Note    string  `json:"note,omitempty"`
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
	// LegislationSearchResult is legislation_search's answer: the articles ranked
	// first, and a note when the search could not run as asked (an act the corpus
	// does not hold). Language is the question's, which the "no results" text follows.
	LegislationSearchResult struct {
		Results  []LegislationHit `json:"results"`
		Note     string           `json:"note,omitempty"`
		Language string           `json:"language"`
		Meta     KBMeta           `json:"meta"`
	}
	// LegislationHit is one article: its reference as lawyers write it ("Codul
	// civil, art. 1357"), its heading, doc_id (for the full text), the date its text
	// is current as of, whether it is in force, an excerpt and where to read it.
	LegislationHit struct {
		Reference    string  `json:"reference"`
		Title        string  `json:"title"`
		DocID        string  `json:"doc_id"`
		Jurisdiction string  `json:"jurisdiction"`
		AsOf         string  `json:"as_of"`
		InForce      bool    `json:"in_force"`
		Excerpt      string  `json:"excerpt"`
		URL          string  `json:"url"`
		Score        float64 `json:"score"`
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

// PlaceholderNotFound is get_party_id_by_name's error_message for a placeholder
// ({{party3.fullName}}) that names no party of the case.
const PlaceholderNotFound = "Placeholder not found: it names no party of this case."

// LegalTextPageChars is the most characters one page of read_legal_text holds: with
// its heading it fits the tool's budget at the default context size.
const LegalTextPageChars = 12_000

// Kinds of legal text read_legal_text reads.
const (
	LegalTextArticle  = "article"
	LegalTextDecision = "decision"
)

// ReadLegalTextResult is read_legal_text's answer: page Page of Pages of one text,
// with what a lawyer cites it by and how current it is.
type ReadLegalTextResult struct {
	Status       string `json:"status"`
	ErrorMessage string `json:"error_message,omitempty"`
	DocID        string `json:"doc_id,omitempty"`
	Kind         string `json:"kind,omitempty"`
	// Reference cites the text as the citation check reads it: "art. 1357 Codul
	// civil", "Cass. pen., Sez. VI, n. 10387/2025".
	Reference string `json:"reference,omitempty"`
	Title     string `json:"title,omitempty"`
	// AsOf is the date the text is current as of.
	AsOf string `json:"as_of,omitempty"`
	// Version says where a text other than the shipped corpus's comes from: "as
	// published by legislatie.just.ro, read 2026-11-27".
	Version string `json:"version,omitempty"`
	InForce *bool  `json:"in_force,omitempty"`
	URL     string `json:"url,omitempty"`
	Page    int    `json:"page,omitempty"`
	Pages   int    `json:"pages,omitempty"`
	Text    string `json:"text,omitempty"`
}
