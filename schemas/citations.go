package schemas

// Citation statuses: what the corpus says of a citation (see corpus.Status*).
const (
	CitationVerified      = "verified"
	CitationNotFound      = "not_found"
	CitationUnknownSource = "unknown_source"
	CitationRepealed      = "repealed"
	CitationMisquoted     = "misquoted"
)

// Citation is a legal citation of a text and what the corpus says of it: the one shape
// of the turn's citations, the citations event, drafts' checks and POST
// /v1/citations/check.
type Citation struct {
	Text string `json:"text"`
	// Kind is article, act or decision.
	Kind string `json:"kind"`
	// Status is verified, not_found, unknown_source (the corpus does not hold the
	// source, or only part of it: unavailable, not invented), repealed or misquoted.
	Status string `json:"status"`
	// Verified is Status == "verified", kept for clients written before statuses.
	Verified bool `json:"verified"`
	// RefersTo names the act or court the citation was read as.
	RefersTo string `json:"refers_to,omitempty"`
	// Article is the cited article's number, for an article.
	Article string `json:"article,omitempty"`
	DocID   string `json:"doc_id,omitempty"`
	URL     string `json:"url,omitempty"`
	// InForce is set when the corpus holds the article or act.
	InForce *bool `json:"in_force,omitempty"`
	// AsOf is the date the corpus's text of the source is current as of.
	AsOf string `json:"as_of,omitempty"`
	// Quote is the quotation attached to the citation, when it was checked, and
	// Passage the closest passage of the cited text when it is misquoted.
	Quote   string `json:"quote,omitempty"`
	Passage string `json:"passage,omitempty"`
}

// NeedsReview reports whether a reader must look at the citation again: the corpus
// disproves it, finds it misquoted, or repealed.
func (c Citation) NeedsReview() bool {
	return c.Status == CitationNotFound || c.Status == CitationMisquoted || c.Status == CitationRepealed
}

// CheckCitations asks for the citations of a reply to be checked.
type CheckCitations struct {
	Reply    string `json:"reply"`
	Language string `json:"language"`
}

// CheckedReply is the reply with its citations marked, and its citations.
type CheckedReply struct {
	Reply     string     `json:"reply"`
	Citations []Citation `json:"citations"`
}

// MaxCheckedText bounds the text POST /v1/citations/check takes, in bytes: a long
// brief, not a library.
const MaxCheckedText = 200_000

// CitationCheck asks POST /v1/citations/check's question: the citations of any text.
type CitationCheck struct {
	Text     string `json:"text"`
	Language string `json:"language"`
}

// CitationReport answers it.
type CitationReport struct {
	Citations []Citation `json:"citations"`
	// Truncated is set when the text reached the limit of citations checked (500):
	// any after those were not checked.
	Truncated bool `json:"truncated,omitempty"`
}

// citationCheckPrefix starts the workflow IDs of POST /v1/citations/check.
const citationCheckPrefix = "citations:"

// CitationCheckWorkflowID is the ID of one citation check (id, a UUID) of tenant (a
// TenantKey), which its payloads are sealed for (see TenantOfWorkflow).
func CitationCheckWorkflowID(tenant, id string) string { return citationCheckPrefix + tenant + ":" + id }
