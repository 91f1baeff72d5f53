package schemas

import "time"

// A research source (a degrade-class tool) that fails SourceFailureLimit times within
// SourceFailureWindow, across cases, opens the operator's support ticket of the day
// about it (SourceTicketID). No case pauses for it.
const (
	SourceFailureLimit  = 5
	SourceFailureWindow = 10 * time.Minute
)

// OperatorCase is the case ID the operator's own tickets are filed under in the
// tickets store: a failing source is no client's case.
const OperatorCase = "operator"

// SourceTicketID is the ID of the operator's support ticket about a failing source on
// the UTC day of at, and of the SupportTicket workflow that opens it: one a day.
func SourceTicketID(tool string, at time.Time) string {
	return "source:" + tool + ":" + at.UTC().Format(time.DateOnly)
}

// RecordSourceFailure is the RecordSourceFailure activity's input: a degrade-class
// tool's call that failed after its retries.
type RecordSourceFailure struct {
	// ID names the failed call, so that a retried activity counts it once.
	ID     string    `json:"id"`
	Tool   string    `json:"tool"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// SourceFailures answers RecordSourceFailure: how many failures of the tool the store
// holds within SourceFailureWindow, this one among them.
type SourceFailures struct {
	Failures int `json:"failures"`
}
