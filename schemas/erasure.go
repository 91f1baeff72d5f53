package schemas

import "time"

// erasePrefix starts the ID of every Erase workflow. It is not casePrefix: an
// erasure's payloads are sealed with the system key, which outlives the case's.
const erasePrefix = "erase:"

// EraseWorkflowID is the ID of the Erase workflow of case caseID: one erasure per case.
func EraseWorkflowID(caseID string) string { return erasePrefix + caseID }

// RetentionScheduleID is the ID of the Temporal schedule that runs the Retention
// workflow, and the prefix of its runs' workflow IDs.
const RetentionScheduleID = "retention"

// EraseInput starts an Erase workflow: whose case, who asked, why (ErasureRequested or
// ErasureRetention) and when.
type EraseInput struct {
	CaseID string    `json:"case_id"`
	By     string    `json:"by"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// RetentionBy is who asks for the erasures that retention starts.
const RetentionBy = "retention"

// Erasure reasons.
const (
	// ErasureRequested is an erasure its owner or an admin asked for.
	ErasureRequested = "request"
	// ErasureRetention is an erasure of a closed case its organization keeps no longer.
	ErasureRetention = "retention"
)

// Erasure is the receipt of a case's erasure: whose case it was, who asked and why,
// and, once done, what was erased and when. It holds nothing of the case's content and
// outlives the case, so a repeated request is answered with it.
type Erasure struct {
	CaseID string `json:"case_id"`
	OrgID  string `json:"org_id,omitempty"`
	UserID string `json:"user_id"`
	// CaseCreatedAt is when the case was opened, so that it still counts towards its
	// owner's cases of that day (the store's CountCases).
	CaseCreatedAt time.Time `json:"case_created_at"`
	RequestedBy   string    `json:"requested_by"`
	Reason        string    `json:"reason"`
	RequestedAt   time.Time `json:"requested_at"`
	// ErasedAt is when the erasure finished; nil while it runs.
	ErasedAt *time.Time `json:"erased_at,omitempty"`
	Erased   Erased     `json:"erased"`
}

// Erased counts what an erasure deleted: what each step reported on its last attempt,
// so a step retried after a crash midway counts only what was left.
type Erased struct {
	Cases   int `json:"cases"`
	Records int `json:"messages"`
	Parties int `json:"parties"`
	Tickets int `json:"tickets"`
	Events  int `json:"events"`
	Blobs   int `json:"files"`
	// CourtFiles counts the court files the case linked.
	CourtFiles int `json:"court_files"`
	// Deadlines counts the case's deadlines.
	Deadlines int `json:"deadlines"`
	// Notifications counts the in-app notifications and send records about the case,
	// every user's.
	Notifications int `json:"notifications"`
	// MemoryProposals counts the memory facts proposed from the case that its owner
	// had not kept.
	MemoryProposals int `json:"memory_proposals"`
	// KeyDestroyedAt is when the case's data key was destroyed.
	KeyDestroyedAt *time.Time `json:"key_destroyed_at,omitempty"`
}

// Add returns the sum of two counts; the key's time is b's if set.
func (a Erased) Add(b Erased) Erased {
	a.Cases += b.Cases
	a.Records += b.Records
	a.Parties += b.Parties
	a.Tickets += b.Tickets
	a.Events += b.Events
	a.Blobs += b.Blobs
	a.CourtFiles += b.CourtFiles
	a.Deadlines += b.Deadlines
	a.Notifications += b.Notifications
	a.MemoryProposals += b.MemoryProposals
	if b.KeyDestroyedAt != nil {
		a.KeyDestroyedAt = b.KeyDestroyedAt
	}
	return a
}
