package schemas

import "time"

// CaseEvent is a payment, resumption, closing or raised budget the Case received and
// keeps until it is handled: exactly one of its pointers is set. ID names it: the
// update's ID, or the payment's (PaymentConfirmed.ID).
type CaseEvent struct {
	ID      string            `json:"id"`
	Payment *PaymentConfirmed `json:"payment,omitempty"`
	Resume  *Resume           `json:"resume,omitempty"`
	Close   *CloseCase        `json:"close,omitempty"`
	Budget  *BudgetRaised     `json:"budget,omitempty"`
}

// At is when the case took the event: the payment's confirmation, or the update.
func (e CaseEvent) At() time.Time {
	switch {
	case e.Payment != nil:
		return e.Payment.At
	case e.Resume != nil:
		return e.Resume.At
	case e.Budget != nil:
		return e.Budget.At
	case e.Close != nil:
		return e.Close.At
	}
	return time.Time{}
}

// CaseOutcome answers the Case's updates that carry an event (UpdateResume,
// UpdateCloseCase, UpdateBudgetRaised, UpdateSettlePayment): the event's ID, whether
// the case has handled it (false while it waits its turn, or when the case stalled on
// it), when the case took it (for an update's event), and where the case then stands.
type CaseOutcome struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at,omitzero"`
	Handled bool      `json:"handled"`
	// Refused says why the case did not act on the event: no audited record backs it.
	Refused string            `json:"refused,omitempty"`
	Phase   string            `json:"phase"`
	Status  string            `json:"status"`
	Busy    bool              `json:"busy"`
	Payment *PaymentConfirmed `json:"payment,omitempty"`
}

// Steps of its own that a case can stall on.
const (
	// StepTiering is writing Stall.Notice, if any, then the case's classification of
	// Stall.Tiering, if any.
	StepTiering = "tiering"
	// StepEvent is the handling of an event (Stall.Event).
	StepEvent = "event"
	// StepUnanswered is opening the ticket of a question the client left unanswered
	// (Stall.Escalation).
	StepUnanswered = "unanswered"
	// StepBudgetRenewed is going on when the day's budget renewed.
	StepBudgetRenewed = "budget-renewed"
)

// Stall is a step of the case's own that failed for good (a store write that ran out
// of retries, a phase's child workflow): the case is paused for support rather than
// failed, keeping the step, which support's resume runs again (or closes the case).
// Status and WaitingOn are what the case was before it stalled.
type Stall struct {
	Step       string      `json:"step"`
	Error      string      `json:"error"`
	At         time.Time   `json:"at"`
	Status     string      `json:"status"`
	WaitingOn  string      `json:"waiting_on,omitempty"`
	Tiering    string      `json:"tiering,omitempty"`
	Notice     string      `json:"notice,omitempty"`
	Event      *CaseEvent  `json:"event,omitempty"`
	Escalation *Escalation `json:"escalation,omitempty"`
}
