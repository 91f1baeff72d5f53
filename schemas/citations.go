package schemas

// Citation is a legal citation of a reply and whether the corpus holds what it cites.
type Citation struct {
	Text     string `json:"text"`
	Verified bool   `json:"verified"`
	DocID    string `json:"doc_id,omitempty"`
	URL      string `json:"url,omitempty"`
}

// CheckCitations asks for the citations of a reply to be checked.
type CheckCitations struct {
	Reply    string `json:"reply"`
	Language string `json:"language"`
}

// CheckedReply is the reply with every unverified citation marked, and its citations.
type CheckedReply struct {
	Reply     string     `json:"reply"`
	Citations []Citation `json:"citations"`
}
