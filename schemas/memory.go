package schemas

// ProposeMemoryWorkflow is the workflow a case starts when it closes: it asks the
// model for facts about the case's client worth remembering in their other cases, and
// stores them as proposals the client approves or rejects one by one.
const ProposeMemoryWorkflow = "ProposeMemory"

// MemoryWorkflowID is the ID of a case's ProposeMemory workflow: one per case.
func MemoryWorkflowID(caseID string) string { return CaseWorkflowID(caseID) + ":memory" }

// MemoryClientHeading starts the part of the memory role's message that holds the
// client's own messages, one a line after "- ".
const MemoryClientHeading = "The client's messages:"

// MaxProposedFacts bounds the facts proposed from one case.
const MaxProposedFacts = 5

// ProposeMemory is the input of ProposeMemory and of its activities: the closed case
// and its owner.
type ProposeMemory struct {
	CaseID   string `json:"case_id"`
	OrgID    string `json:"org_id,omitempty"`
	UserID   string `json:"user_id"`
	Language string `json:"language"`
}

// ProposedFacts are the facts the model proposed, as it wrote them (pseudonymized:
// the case's parties are placeholders), at most MaxProposedFacts.
type ProposedFacts struct {
	Facts []string `json:"facts"`
}

// StoreProposedFacts is the input of the activity that stores the proposals.
type StoreProposedFacts struct {
	ProposeMemory
	Facts []string `json:"facts"`
}

// ProposeMemoryResult says how many facts a closed case proposed anew.
type ProposeMemoryResult struct {
	Proposed int `json:"proposed"`
}
