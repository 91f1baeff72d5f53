package schemas

import "time"

// Resume actions support staff can take on a paused or waiting case.
const (
	// ResumeRetry runs the turn that escalated again.
	ResumeRetry = "retry"
	// ResumeContinue lets the client go on writing.
	ResumeContinue = "continue"
	// ResumeClose closes the case.
	ResumeClose = "close"
)

// ResumeActions lists the resume actions.
var ResumeActions = []string{ResumeRetry, ResumeContinue, ResumeClose}

// Resume is the resume update: who resumed a case, how and why. At is the time the
// case accepted it, set by the case.
type Resume struct {
	Action string `json:"action"`
	Note   string `json:"note"`
	// Tier is the tier support decided for a case stalled on its tiering (a tier
	// review: the model gave none it could read); 0 leaves the tiering to run again.
	Tier int       `json:"tier,omitempty"`
	By   string    `json:"by"`
	At   time.Time `json:"at,omitzero"`
}

// CloseCase is the close-case update: the client is done with the case, or it is
// being erased. At is the time the case accepted it, set by the case.
type CloseCase struct {
	Note string    `json:"note,omitempty"`
	By   string    `json:"by"`
	At   time.Time `json:"at,omitzero"`
}

// MaxNoteChars bounds the note of a resumption or a closing, in characters.
const MaxNoteChars = 2000

// SupportTicketInput starts a SupportTicket workflow: create_support_ticket's arguments
// and who the case belongs to.
type SupportTicketInput struct {
	TicketID string                  `json:"ticket_id"`
	UserID   string                  `json:"user_id"`
	Args     CreateSupportTicketArgs `json:"args"`
	// Escalation is the failed call whose ladder opened the ticket, or nil for a
	// ticket the model opened: the activity publishes the ticket rung's event from it.
	Escalation *Escalation `json:"escalation,omitempty"`
	// Source is the research tool an operator's ticket is about (SourceTicketID): the
	// ticket belongs to no case (OperatorCase) and pauses none.
	Source string `json:"source,omitempty"`
	// Deadline is the missed deadline a ticket is about: the ticket is stored with
	// its case, for support to see, and pauses nothing.
	Deadline string `json:"deadline,omitempty"`
}

// TicketResult is create_support_ticket's return shape (seed 003).
type TicketResult struct {
	Status       string `json:"status"`
	TicketID     string `json:"ticket_id,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// RecordResume is who resumed a case, how and why, to be recorded.
type RecordResume struct {
	CaseID string `json:"case_id"`
	Resume Resume `json:"resume"`
}
