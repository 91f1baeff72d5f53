package schemas

import (
	"encoding/json"
	"time"
)

// Workflow names of the case phases and the tools that run as workflows.
const (
	TieringWorkflow       = "Tiering"
	QuotaWorkflow         = "Quota"
	DraftWorkflow         = "Draft"
	SupportTicketWorkflow = "SupportTicket"
)

// Tiers a case can be classified in.
const (
	MinTier = 1
	MaxTier = 3
)

// TieringInput starts a Tiering child workflow.
type TieringInput struct {
	CaseID   string `json:"case_id"`
	Language string `json:"language"`
	// Description is everything the client has said about the case so far: the case's
	// description and the answer to a clarifying question, if one was asked.
	Description string `json:"description"`
	// MustDecide is set once the one clarifying question has been asked.
	MustDecide bool `json:"must_decide"`
}

// TieringResult is a tier with its justification, or one clarifying question.
type TieringResult struct {
	Tier          int    `json:"tier,omitempty"`
	Justification string `json:"justification,omitempty"`
	Question      string `json:"question,omitempty"`
}

// QuotaInput starts a Quota child workflow.
type QuotaInput struct {
	CaseID string `json:"case_id"`
	UserID string `json:"user_id"`
	OrgID  string `json:"org_id,omitempty"`
	Tier   int    `json:"tier"`
}

// QuotaResult says whether a subscription covers the case; when it does, one credit of
// the case's tier has been used for it.
type QuotaResult struct {
	HasQuota bool `json:"has_quota"`
	// Reason is check_quota's error message when the check itself failed
	// ("Subscription not found"); such a case must be paid for.
	Reason string `json:"reason,omitempty"`
}

// CheckQuotaResult is check_quota's return shape (seed 003): {"status": "success",
// "has_quota": bool} or {"status": "error", "error_message": "..."}.
type CheckQuotaResult struct {
	Status       string `json:"status"`
	HasQuota     *bool  `json:"has_quota,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// check_quota's error texts (seed 003).
const (
	QuotaUserNotFound         = "User not found"
	QuotaSubscriptionNotFound = "Subscription not found"
	QuotaInvalidTier          = "Invalid tier"
)

// UseCredit asks for one credit of a tier to be used for a case.
type UseCredit struct {
	CaseID string `json:"case_id"`
	UserID string `json:"user_id"`
	OrgID  string `json:"org_id,omitempty"`
	Tier   int    `json:"tier"`
}

// PaymentConfirmed is the payment-confirmed signal: a case's payment went through.
type PaymentConfirmed struct {
	// Reference is the payment provider's reference; the first one confirmed is kept.
	Reference string    `json:"reference"`
	By        string    `json:"by"`
	At        time.Time `json:"at"`
}

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

// Resume is the resume signal: who resumed a case, how and why.
type Resume struct {
	Action string    `json:"action"`
	Note   string    `json:"note"`
	By     string    `json:"by"`
	At     time.Time `json:"at,omitempty"`
}

// CloseCase is the close-case signal: the client is done with the case.
type CloseCase struct {
	Note string    `json:"note,omitempty"`
	By   string    `json:"by"`
	At   time.Time `json:"at,omitempty"`
}

// Rungs of the escalation ladder, in order. Each tool's policy says how far up it goes.
const (
	// RungReasoner: the tool's retries ran out and the reasoner was consulted.
	RungReasoner = "reasoner"
	// RungAdvice: the reasoner's advice was followed, once.
	RungAdvice = "advice"
	// RungAskUser: the client was asked, and the case waits for an answer.
	RungAskUser = "ask_user"
	// RungTicket: a support ticket was opened and the case is paused.
	RungTicket = "ticket"
)

// Escalation is a tool failure on its way up the ladder.
type Escalation struct {
	// N numbers the case's escalations from 1; it names the escalation's ticket.
	N      int             `json:"n"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
	Error  string          `json:"error"`
	Rung   string          `json:"rung"`
	Advice string          `json:"advice,omitempty"`
	// Question is what the client was asked.
	Question string `json:"question,omitempty"`
	// Message is the client's message of the turn that escalated, for a retry.
	Message string `json:"message,omitempty"`
	// WaitUntil is when an unanswered question turns into a ticket.
	WaitUntil time.Time `json:"wait_until,omitzero"`
	TicketID  string    `json:"ticket_id,omitempty"`
	// Selection is the escalated turn's, for a retry.
	Selection Selection `json:"selection"`
}

// RungAnswer marks the retry of a failed tool after the client answered its question.
const RungAnswer = "answer"

// Advice is the reasoner's answer when consulted about a failed tool: retry the tool
// with (corrected) arguments, call another tool, or ask the client.
type Advice struct {
	Action   string         `json:"action"`
	Tool     string         `json:"tool,omitempty"`
	Args     map[string]any `json:"args,omitempty"`
	Question string         `json:"question,omitempty"`
	Reason   string         `json:"reason,omitempty"`
}

// Advice actions.
const (
	AdviceRetry   = "retry"
	AdviceUseTool = "use_tool"
	AdviceAskUser = "ask_user"
)

// ConsultReasonerResult is consult_reasoner's return shape (seed 003's consult_grok).
type ConsultReasonerResult struct {
	Status       string `json:"status"`
	Response     string `json:"response,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// ConsultPurposeEscalation asks consult_reasoner for advice on a failed tool, in the
// escalation prompt's JSON, instead of the reasoner's free answer.
const ConsultPurposeEscalation = "escalation"

// SupportTicketInput starts a SupportTicket workflow: create_support_ticket's arguments
// and who the case belongs to.
type SupportTicketInput struct {
	TicketID string                  `json:"ticket_id"`
	UserID   string                  `json:"user_id"`
	Args     CreateSupportTicketArgs `json:"args"`
}

// TicketResult is create_support_ticket's return shape (seed 003).
type TicketResult struct {
	Status       string `json:"status"`
	TicketID     string `json:"ticket_id,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// DraftResult is generate_draft_pdf's return shape (seed 003).
type DraftResult struct {
	Status       string `json:"status"`
	PDFPath      string `json:"pdf_gcs_path,omitempty"`
	DraftID      string `json:"draft_firestore_id,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// RenderedDraft is a draft revision stored in the blob store, as recorded in
// case_details.draft_status under its ID.
type RenderedDraft struct {
	DraftID   string    `json:"draft_id"`
	DraftName string    `json:"draft_name"`
	Revision  int       `json:"revision"`
	Path      string    `json:"path"`
	SHA256    string    `json:"sha256"`
	Size      int64     `json:"size"`
	CreatedAt time.Time `json:"created_at"`
}

// RenderDraftResult is the RenderDraft activity's answer: the stored draft, or the
// error text for the model when the draft itself is at fault.
type RenderDraftResult struct {
	Draft        RenderedDraft `json:"draft"`
	ErrorMessage string        `json:"error_message,omitempty"`
}

// RecordDraft records a rendered draft in case_details.draft_status.
type RecordDraft struct {
	CaseID string        `json:"case_id"`
	Draft  RenderedDraft `json:"draft"`
}

// Notice is a line the case writes into the transcript outside a chat turn: the answer
// of a phase, a rung of the ladder, or a support action.
type Notice struct {
	CaseID string `json:"case_id"`
	UserID string `json:"user_id"`
	// N numbers the case's notices; it makes the record's ID.
	N int `json:"n"`
	// TurnNo is the turn the notice follows, so the transcript keeps its order.
	TurnNo int       `json:"turn_no"`
	Role   string    `json:"role"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}
