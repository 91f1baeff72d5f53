package schemas

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// DeadlineWorkflow is the name of the workflow that keeps one deadline's timers.
const DeadlineWorkflow = "Deadline"

// Statuses of a deadline. A proposed deadline (by the assistant or a court file) runs
// no timer until a person confirms it; an active one runs its Deadline workflow, which
// ends when the deadline is done, missed, cancelled or deleted.
const (
	DeadlineProposed  = "proposed"
	DeadlineActive    = "active"
	DeadlineDone      = "done"
	DeadlineMissed    = "missed"
	DeadlineCancelled = "cancelled"
)

// Kinds of a deadline's source: what set it running.
const (
	SourceCourtOrder    = "court_order"
	SourceCommunication = "communication"
	SourceHearing       = "hearing"
	SourceOther         = "other"
)

// DeadlineSources are the kinds a deadline's source may be.
var DeadlineSources = []string{SourceCourtOrder, SourceCommunication, SourceHearing, SourceOther}

// DeadlineSource is what set a deadline running: its kind, the act's reference (a
// court order's number, a letter's registration) and the day it was given or
// received. The reference is the user's words, sealed with the case's data.
type DeadlineSource struct {
	Kind      string `json:"kind"`
	Reference string `json:"reference,omitempty"`
	// Date is YYYY-MM-DD.
	Date string `json:"date,omitempty"`
}

// ReminderMorning is the reminder sent at 08:00, in the recipient's time zone, on the
// deadline's last day.
const ReminderMorning = "morning"

// MorningHour is the hour of ReminderMorning.
const MorningHour = 8

// DefaultReminders are a deadline's reminders unless it names its own: 7 days and 2
// days before it ends, and the morning of its last day.
var DefaultReminders = []string{"168h", "48h", ReminderMorning}

// Bounds of a deadline's reminders.
const (
	// MaxReminders bounds the reminders of one deadline.
	MaxReminders = 8
	// MinReminderOffset is the shortest offset, for tests; MaxReminderOffset the
	// longest, a year.
	MinReminderOffset = time.Second
	MaxReminderOffset = 366 * 24 * time.Hour
)

// ParseReminder reads a reminder: ReminderMorning, or how long before the deadline
// ends it goes out, as a Go duration ("168h", "30s") between MinReminderOffset and
// MaxReminderOffset in whole seconds. It returns the offset (0 for the morning).
func ParseReminder(s string) (time.Duration, error) {
	if s == ReminderMorning {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+"):
		return 0, fmt.Errorf("a reminder is %q or a duration such as \"48h\" or \"30s\"", ReminderMorning)
	case d < MinReminderOffset || d > MaxReminderOffset || d%time.Second != 0:
		return 0, fmt.Errorf("a reminder's offset is whole seconds from %s to %s", MinReminderOffset, MaxReminderOffset)
	}
	return d, nil
}

// deadlinePrefix starts a Deadline workflow's ID.
const deadlinePrefix = "deadline:"

// DeadlineWorkflowID is the ID of the Deadline workflow of deadline id of case caseID,
// tenant (a TenantKey), which its payloads are sealed for (see TenantOfWorkflow). Case
// and deadline IDs are UUIDs, so the last ":" ends the tenant.
func DeadlineWorkflowID(tenant, caseID, id string) string {
	return deadlinePrefix + tenant + ":" + caseID + "/" + id
}

// DeadlinePlan is what a Deadline workflow keeps time by: the deadline as it stands.
// Rev is the stored deadline's revision; a plan of a lower Rev than the workflow's is
// stale and changes nothing.
type DeadlinePlan struct {
	Rev    int64  `json:"rev"`
	Status string `json:"status"`
	// Kind is the source's kind, which a notification names (never the user's title).
	Kind string `json:"kind"`
	// Due is the last day, YYYY-MM-DD; EndsAt its 24:00 in Zone, the court's zone.
	Due    string    `json:"due"`
	EndsAt time.Time `json:"ends_at"`
	Zone   string    `json:"zone"`
	// Responsible is the store.OwnerID of the user who answers for the deadline.
	Responsible string `json:"responsible"`
	// Reminders are ParseReminder's texts.
	Reminders []string `json:"reminders"`
}

// DeadlineInput starts a Deadline workflow.
type DeadlineInput struct {
	TenantID   string `json:"tenant_id,omitempty"`
	CaseID     string `json:"case_id"`
	DeadlineID string `json:"deadline_id"`
	// Owner is the store.OwnerID of the case's owner, who is told of every reminder
	// beside the responsible user.
	Owner    string       `json:"owner"`
	Language string       `json:"language,omitempty"`
	Plan     DeadlinePlan `json:"plan"`
	// PlannedAt is when the plan took effect: reminders due before it are not sent
	// (a deadline set two days ahead gets no 7-day reminder). Zero means the run's
	// start.
	PlannedAt time.Time `json:"planned_at,omitzero"`
	// Sent are the notification keys sent already, carried across continue-as-new.
	Sent []string `json:"sent,omitempty"`
}

// UpdateDeadlinePlan carries a DeadlinePlan to a Deadline workflow, which re-plans its
// timers and answers the plan it keeps; a plan whose status is no longer active ends
// the workflow.
const UpdateDeadlinePlan = "deadline-plan"

// DeadlineResult is how a Deadline workflow ended: the deadline's status then.
type DeadlineResult struct {
	Status string `json:"status"`
}

// MarkDeadlineMissed asks the store to mark a deadline missed, if it is still active
// at revision Rev.
type MarkDeadlineMissed struct {
	CaseID     string `json:"case_id"`
	DeadlineID string `json:"deadline_id"`
	Rev        int64  `json:"rev"`
}

// MarkedMissed says whether MarkDeadlineMissed marked the deadline (false: it had
// changed meanwhile, and the workflow takes the stored plan instead).
type MarkedMissed struct {
	Marked bool         `json:"marked"`
	Plan   DeadlinePlan `json:"plan"`
}

// ReadMornings asks when the morning reminder (ReminderMorning) of a deadline's last
// day reaches each recipient: MorningHour of Due in the time zone of the recipient's
// notification settings, or in Zone, the court's, for one who set none.
type ReadMornings struct {
	// Due is the last day, YYYY-MM-DD.
	Due  string `json:"due"`
	Zone string `json:"zone"`
	// Owners are the recipients' store.OwnerIDs, at most MaxMorningOwners.
	Owners []string `json:"owners"`
}

// MaxMorningOwners bounds the recipients of one ReadMornings.
const MaxMorningOwners = 8

// Morning is when the morning reminder reaches one recipient, and in which zone.
type Morning struct {
	Owner string    `json:"owner"`
	Zone  string    `json:"zone"`
	At    time.Time `json:"at"`
}

// Mornings answers ReadMornings: one Morning per owner, in the order asked.
type Mornings struct {
	Mornings []Morning `json:"mornings"`
}

// DeadlineNotificationKey is the Key of a deadline's notification of kind for one
// recipient: offset names the reminder (its ParseReminder text; "" for others), due
// the day, so a moved deadline reminds again and a retry or replay sends nothing twice.
func DeadlineNotificationKey(id, kind, offset, due, recipient string) string {
	return "deadline:" + id + ":" + kind + ":" + offset + ":" + due + ":" + recipient
}

// Bounds of a deadline's texts, in characters.
const (
	MaxDeadlineTitleChars     = 200
	MaxDeadlineReferenceChars = 200
)

// CheckDeadline checks what a person or a model wrote of a deadline: a title, and a
// source of a known kind with a bounded reference and a YYYY-MM-DD date, if any.
func CheckDeadline(title string, src DeadlineSource) error {
	switch {
	case strings.TrimSpace(title) == "":
		return errors.New("title is required")
	case utf8.RuneCountInString(title) > MaxDeadlineTitleChars:
		return fmt.Errorf("title is at most %d characters", MaxDeadlineTitleChars)
	case !slices.Contains(DeadlineSources, src.Kind):
		return fmt.Errorf("source.kind must be one of %s", strings.Join(DeadlineSources, ", "))
	case utf8.RuneCountInString(src.Reference) > MaxDeadlineReferenceChars:
		return fmt.Errorf("source.reference is at most %d characters", MaxDeadlineReferenceChars)
	}
	if src.Date != "" {
		if _, err := time.Parse(time.DateOnly, src.Date); err != nil || len(src.Date) != len(time.DateOnly) {
			return errors.New("source.date must be a date written YYYY-MM-DD")
		}
	}
	return nil
}

// CheckReminders checks a deadline's reminders (see ParseReminder): at most
// MaxReminders, none twice.
func CheckReminders(rs []string) error {
	if len(rs) > MaxReminders {
		return fmt.Errorf("at most %d reminders", MaxReminders)
	}
	for i, r := range rs {
		if _, err := ParseReminder(r); err != nil {
			return err
		}
		if slices.Contains(rs[:i], r) {
			return fmt.Errorf("reminder %q is named twice", r)
		}
	}
	return nil
}

// DeadlineTicketID is the ID of the support ticket a missed deadline opens: one per
// deadline and day.
func DeadlineTicketID(caseID, id, due string) string {
	return CaseWorkflowID(caseID) + ":deadline:" + id + ":missed:" + due
}
