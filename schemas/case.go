package schemas

import (
	"slices"
	"time"
)

// Case phases, in order (seed 003's Phase 1 and Phase 2): the Tiering child workflow
// classifies the case, the Quota child checks the subscription, an uncovered case waits
// for payment, and then the case is active.
const (
	PhaseTiering         = "tiering"
	PhaseQuota           = "quota"
	PhaseAwaitingPayment = "awaiting_payment"
	PhaseActive          = "active"
)

// Case statuses. A case is open while it works or waits for the client's next message;
// waiting_user when the escalation ladder asked the client a question; waiting_budget
// when its model-token budget for the day is used up; paused_support when a support
// ticket holds it.
const (
	StatusOpen          = "open"
	StatusWaitingUser   = "waiting_user"
	StatusWaitingBudget = "waiting_budget"
	StatusPausedSupport = "paused_support"
	StatusClosed        = "closed"
)

// What a case waits on, in its WaitingOn search attribute. A case that waits for
// nothing (the client may write at any time) has none.
const (
	WaitingOnAgent   = "agent"
	WaitingOnUser    = "user"
	WaitingOnPayment = "payment"
	WaitingOnSupport = "support"
	WaitingOnBudget  = "budget"
)

// CaseInput starts a Case workflow, or continues one as new.
type CaseInput struct {
	CaseID   string `json:"case_id"`
	UserID   string `json:"user_id"`
	OrgID    string `json:"org_id,omitempty"`
	Language string `json:"language"`
	// MaxSteps bounds each chat turn's tool loop; it is fixed when the case starts so
	// that a deployment's setting cannot change a running case's history.
	MaxSteps int `json:"max_steps"`
	// Description is what the client wrote when opening the case; tiering reads it.
	Description string `json:"description"`
	// UserWait is how long the case waits for the client's answer to the escalation
	// ladder's question before it opens a support ticket.
	UserWait time.Duration `json:"user_wait"`
	// TurnTimeout is each chat turn's deadline (ChatTurnInput.Timeout).
	TurnTimeout time.Duration `json:"turn_timeout,omitempty"`
	// State is carried over by continue-as-new; nil on a new case.
	State *CaseState `json:"state,omitempty"`
}

// CaseState is the Case workflow's own state, carried over by continue-as-new; what
// clients and staff see of it is its View (CaseStatus).
type CaseState struct {
	CaseID   string `json:"case_id"`
	UserID   string `json:"user_id"`
	Phase    string `json:"phase"`
	Status   string `json:"status"`
	Turns    int    `json:"turns"`
	Busy     bool   `json:"busy"`
	LastTurn string `json:"last_turn,omitempty"`
	// Runs counts continue-as-new generations, starting at 1.
	Runs int `json:"runs"`
	// Tier and its justification, once tiering decided.
	Tier          int    `json:"tier,omitempty"`
	Justification string `json:"justification,omitempty"`
	// Question is tiering's clarifying question while it waits for the answer.
	Question string `json:"question,omitempty"`
	// Asked is set once tiering asked its one question.
	Asked bool `json:"asked,omitempty"`
	// Payment is the confirmed payment of a case no subscription covered.
	Payment *PaymentConfirmed `json:"payment,omitempty"`
	// WaitingOn says what the case waits for (WaitingOn* values; empty for nothing),
	// since ProgressAt.
	WaitingOn  string    `json:"waiting_on,omitempty"`
	ProgressAt time.Time `json:"progress_at"`
	// Escalation is the tool failure on the ladder, while the case waits for the client
	// or for support.
	Escalation *Escalation `json:"escalation,omitempty"`
	// Escalations counts the case's escalations; Notices its transcript notices.
	Escalations int `json:"escalations"`
	Notices     int `json:"notices"`
	// Budget is the pause of a case in StatusWaitingBudget.
	Budget *BudgetPause `json:"budget,omitempty"`
	// Stalled is the case's own step that failed for good, which holds the case in
	// StatusPausedSupport until support's resume runs it again.
	Stalled *Stall `json:"stalled,omitempty"`
	// Tickets are the IDs of the case's support tickets.
	Tickets []string `json:"tickets,omitempty"`
	// LastResume is support's latest resumption.
	LastResume *Resume `json:"last_resume,omitempty"`
	// Handled are the IDs of the latest events (CaseEvent.ID) the case has handled,
	// newest last, which the updates that carry them wait for.
	Handled []string `json:"handled,omitempty"`
	// Refused are the latest events refused for want of an audited record, newest
	// last, at most MaxHandled: their outcome says why, across continue-as-new too.
	Refused []RefusedEvent `json:"refused,omitempty"`
	// Keyed are the turns started with an idempotency key in the last KeyedTurnsFor,
	// newest last: a request repeating a key gets the turn it started, even after the
	// case continued as new (Temporal remembers update IDs within one run only).
	Keyed []KeyedTurn `json:"keyed,omitempty"`
	// Seq is the Seq of the latest CaseStatus the case published.
	Seq int64 `json:"seq"`
}

// RefusedEvent is an event a case did not act on (CaseState.Refused), and why.
type RefusedEvent struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// MaxHandled is how many handled events CaseState.Handled remembers.
const MaxHandled = 16

// KeyedTurn is a turn started by a request with an idempotency key.
type KeyedTurn struct {
	// Key is the API's digest of (organization, subject, case, Idempotency-Key).
	Key    string    `json:"key"`
	TurnID string    `json:"turn_id"`
	At     time.Time `json:"at"`
}

// How long, and how many, keyed turns a case remembers.
const (
	KeyedTurnsFor = 24 * time.Hour
	MaxKeyedTurns = 256
)

// CancelTurnResult answers the cancel-turn update.
type CancelTurnResult struct {
	TurnID string `json:"turn_id"`
}

// CaseResult is what a Case workflow returns when it ends.
type CaseResult struct {
	State CaseState `json:"state"`
}

// SetCaseStatus writes a case's CaseStatus, and so its phase and status, to the
// store, unless the store holds one of a higher or equal Seq.
type SetCaseStatus struct {
	CaseID string     `json:"case_id"`
	Status CaseStatus `json:"status"`
	// Moved is set when the case moves to another phase or status: the move is
	// published to the case's events.
	Moved bool `json:"moved,omitempty"`
}

// CaseStatus is what clients and staff may see of a case, apart from the Case
// workflow's own state: the workflow builds it from its state, answers it to the state
// query, and writes it to the store's case record at each change, so that the API reads
// it with no Temporal call. Seq numbers the workflow's changes: a write of a lower Seq
// never replaces a higher one.
type CaseStatus struct {
	Phase    string `json:"phase"`
	Status   string `json:"status"`
	Turns    int    `json:"turns"`
	Busy     bool   `json:"busy"`
	LastTurn string `json:"last_turn,omitempty"`
	// Runs counts the workflow's continue-as-new generations, starting at 1.
	Runs          int    `json:"runs"`
	Tier          int    `json:"tier,omitempty"`
	Justification string `json:"justification,omitempty"`
	// Question is tiering's clarifying question while it waits for the answer.
	Question   string            `json:"question,omitempty"`
	Payment    *PaymentConfirmed `json:"payment,omitempty"`
	WaitingOn  string            `json:"waiting_on,omitempty"`
	ProgressAt time.Time         `json:"progress_at"`
	// Escalation is the tool failure on the ladder while the case waits for the
	// client or for support.
	Escalation *EscalationStatus `json:"escalation,omitempty"`
	// Budget is the pause of a case in StatusWaitingBudget.
	Budget *BudgetExhausted `json:"budget,omitempty"`
	// Stalled is the case's own step that failed for good and holds it in
	// StatusPausedSupport until support resumes it.
	Stalled    *StallStatus `json:"stalled,omitempty"`
	Tickets    []string     `json:"tickets,omitempty"`
	LastResume *Resume      `json:"last_resume,omitempty"`
	// Seq numbers this view among the workflow's; UpdatedAt is when the workflow
	// made it.
	Seq       int64     `json:"seq"`
	UpdatedAt time.Time `json:"updated_at"`
}

// EscalationStatus is an escalation as CaseStatus shows it: the failed tool, the
// rung reached, and the question or ticket, without the arguments and the message the
// case keeps for a retry.
type EscalationStatus struct {
	N         int       `json:"n"`
	Tool      string    `json:"tool"`
	Error     string    `json:"error"`
	Rung      string    `json:"rung"`
	Question  string    `json:"question,omitempty"`
	WaitUntil time.Time `json:"wait_until,omitzero"`
	TicketID  string    `json:"ticket_id,omitempty"`
}

// StallStatus is a stall as CaseStatus shows it: the step, its error, and since when.
type StallStatus struct {
	Step  string    `json:"step"`
	Error string    `json:"error"`
	At    time.Time `json:"at"`
}

// View is the state's CaseStatus, stamped with seq and at.
func (s CaseState) View(seq int64, at time.Time) CaseStatus {
	v := CaseStatus{Phase: s.Phase, Status: s.Status, Turns: s.Turns, Busy: s.Busy, LastTurn: s.LastTurn, Runs: s.Runs,
		Tier: s.Tier, Justification: s.Justification, Question: s.Question, Payment: s.Payment, WaitingOn: s.WaitingOn,
		ProgressAt: s.ProgressAt, Tickets: s.Tickets, LastResume: s.LastResume, Seq: seq, UpdatedAt: at}
	if e := s.Escalation; e != nil {
		v.Escalation = &EscalationStatus{N: e.N, Tool: e.Tool, Error: e.Error, Rung: e.Rung, Question: e.Question,
			WaitUntil: e.WaitUntil, TicketID: e.TicketID}
	}
	if b := s.Budget; b != nil {
		v.Budget = &b.BudgetExhausted
	}
	if st := s.Stalled; st != nil {
		v.Stalled = &StallStatus{Step: st.Step, Error: st.Error, At: st.At}
	}
	return v
}

// Same reports whether s and o show the same, their Seq and UpdatedAt aside.
func (s CaseStatus) Same(o CaseStatus) bool {
	return s.Phase == o.Phase && s.Status == o.Status && s.Turns == o.Turns && s.Busy == o.Busy && s.LastTurn == o.LastTurn &&
		s.Runs == o.Runs && s.Tier == o.Tier && s.Justification == o.Justification && s.Question == o.Question &&
		s.WaitingOn == o.WaitingOn && s.ProgressAt.Equal(o.ProgressAt) && slices.Equal(s.Tickets, o.Tickets) &&
		samePointee(s.Payment, o.Payment) && samePointee(s.Escalation, o.Escalation) && samePointee(s.Budget, o.Budget) &&
		samePointee(s.Stalled, o.Stalled) && samePointee(s.LastResume, o.LastResume)
}

// samePointee reports whether a and b are both nil or point at equal values.
func samePointee[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// PaymentDue reports whether the case waits for a payment it has not received.
func (s CaseStatus) PaymentDue() bool { return s.Phase == PhaseAwaitingPayment && s.Payment == nil }
