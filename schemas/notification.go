package schemas

import "time"

// Kinds of Notification: what happened, which names the message's template.
const (
	// NotifyDeadlineReminder is a reminder that a deadline is due (Params: "offset",
	// the reminder's offset before the due time, as a Go duration).
	NotifyDeadlineReminder = "deadline.reminder"
	// NotifyDeadlineMissed tells that a deadline passed without being marked done.
	NotifyDeadlineMissed = "deadline.missed"
	// NotifyDeadlineProposed tells that a deadline was proposed and waits to be
	// confirmed.
	NotifyDeadlineProposed = "deadline.proposed"
	// NotifyCourtHearing tells of a new hearing, hearing result or solution in a
	// linked court file.
	NotifyCourtHearing = "court.hearing"
)

// Notification is one message to one user, sent by the Notify activity over the
// channels the user chose (e-mail to a verified address, the web app's list). Key
// names it: a Notify whose Key has a recorded send sends nothing again, and every
// copy sent under one Key carries the same Message-ID, so a crash between sending
// and recording yields at most a duplicate a mail client folds into one.
//
// A notification names no party: its texts say which case and which deadline, by
// their IDs and the deadline's kind and date, in the user's language.
type Notification struct {
	// Key is unique per message, such as "deadline:<id>:reminder:<offset>:<due>".
	Key string `json:"key"`
	// Kind is one of the Notify* constants.
	Kind string `json:"kind"`
	// TenantID is the organization of the case (empty for a user without one).
	TenantID string `json:"tenant_id,omitempty"`
	// Owner is the recipient's store.OwnerID.
	Owner string `json:"owner"`
	// CaseID is the case the notification is about.
	CaseID string `json:"case_id"`
	// DeadlineID is the deadline it is about, if any.
	DeadlineID string `json:"deadline_id,omitempty"`
	// Due is the deadline's end or the hearing's time, if any.
	Due time.Time `json:"due,omitzero"`
	// Language is the case's language, used when the user chose none.
	Language string `json:"language,omitempty"`
	// Params are the kind's own values for its template.
	Params map[string]string `json:"params,omitempty"`
}

// The keys of Notification.Params that the texts read.
const (
	// ParamOffset is how long before the due time a reminder goes out, as a Go
	// duration ("48h0m0s"), or ReminderMorning.
	ParamOffset = "offset"
	// ParamSource is the kind of the deadline's source: "court_order",
	// "communication" or "hearing"; another value is left out of the text.
	ParamSource = "source"
	// ParamNews, ParamFile, ParamCourt, ParamDay and ParamHour are a court file's
	// news: what is new ("hearing", "result", "solution"), the file's number and
	// court, and the hearing's day (YYYY-MM-DD) and hour as the court wrote it.
	ParamNews  = "news"
	ParamFile  = "numar_dosar"
	ParamCourt = "institutie"
	ParamDay   = "day"
	ParamHour  = "hour"
)

// NotificationResult says what a Notify did: the channels it sent on, or that the
// Key's send was recorded already.
type NotificationResult struct {
	Sent      []string `json:"sent,omitempty"`
	Duplicate bool     `json:"duplicate,omitempty"`
}
