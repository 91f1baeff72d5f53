package schemas

// ToolRagSearch is Edison's rag_search, made a search of one case: ranked passages of
// the case's own documents and transcript.
const ToolRagSearch = "rag_search"

// Bounds of rag_search: its limit, 1 to MaxRagResults (Edison's DefaultRagResults
// when unset), and the characters of one passage.
const (
	MaxRagResults     = 10
	DefaultRagResults = 3
	RagPassageChars   = 800
)

// RagSearchArgs are rag_search's arguments. Global is Edison's search of every chat;
// here it is refused (RagGlobalRefused): a search never reaches another case.
type RagSearchArgs struct {
	CaseID string `json:"case_id"`
	Query  string `json:"query"`
	Limit  int    `json:"limit,omitempty"`
	Global bool   `json:"global,omitempty"`
}

// RagGlobalRefused is rag_search's answer to global: true.
const RagGlobalRefused = "global search is not available: rag_search reads only the current case's own documents and transcript, never another case's; call it again without global"

// Where a rag_search passage comes from.
const (
	RagSourceDocument   = "document"
	RagSourceTranscript = "transcript"
)

// RagPassage is one ranked passage: a page's part of a document the client uploaded
// (DocumentID, Title, Page) or a part of one of the case's earlier messages (Turn,
// Role), pseudonymized as the models read the case.
type RagPassage struct {
	Source     string  `json:"source"`
	DocumentID string  `json:"document_id,omitempty"`
	Title      string  `json:"title,omitempty"`
	Page       int     `json:"page,omitempty"`
	Turn       int     `json:"turn,omitempty"`
	Role       string  `json:"role,omitempty"`
	Score      float64 `json:"score"`
	Text       string  `json:"text"`
}

// RagSearchResult is rag_search's answer: the passages, best first, and what was
// searched (documents, their pages, transcript messages, passages); Skipped counts the
// documents left out because the search had read its bound of text.
type RagSearchResult struct {
	Status       string       `json:"status"`
	ErrorMessage string       `json:"error_message,omitempty"`
	Query        string       `json:"query,omitempty"`
	Passages     []RagPassage `json:"passages"`
	Documents    int          `json:"documents"`
	Pages        int          `json:"pages"`
	Messages     int          `json:"messages"`
	Searched     int          `json:"searched"`
	Skipped      int          `json:"skipped,omitempty"`
}
