package schemas

import "time"

// CaseEvent is a signal the Case received and keeps until it is handled: exactly one
// field is set.
type CaseEvent struct {
	Payment *PaymentConfirmed `json:"payment,omitempty"`
	Resume  *Resume           `json:"resume,omitempty"`
	Close   *CloseCase        `json:"close,omitempty"`
	Budget  *BudgetRaised     `json:"budget,omitempty"`
}

// At is the event's stamp, which the settle update waits for.
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

// Steps of its own that a case can stall on.
const (
	// StepTiering is writing Stall.Notice, if any, then the case's classification of
	// Stall.Tiering, if any.
	StepTiering = "tiering"
	// StepEvent is the handling of a signal (Stall.Event).
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
