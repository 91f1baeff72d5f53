package store

import (
	"context"
	"slices"
	"time"

	"github.com/lexflow/lexflow/internal/deadline"
	"github.com/lexflow/lexflow/schemas"
)

// Deadline is a procedural time limit in a case: where it comes from, how its day was
// found, who answers for it, when its reminders go out, and where it stands. Its Title
// and its source's Reference are the user's words, sealed with the case's data; they
// are never sent in a notification or a feed.
type Deadline struct {
	ID       string `json:"deadline_id"`
	CaseID   string `json:"case_id"`
	TenantID string `json:"tenant_id,omitempty"`
	// Owner is the case owner's OwnerID.
	Owner  string                 `json:"owner"`
	Title  string                 `json:"title"`
	Source schemas.DeadlineSource `json:"source"`
	// Computation is how Due was computed; nil for a day set by hand.
	Computation *DeadlineComputation `json:"computation,omitempty"`
	// Due is the last day, YYYY-MM-DD; EndsAt is its 24:00 in Zone, the court's zone.
	Due    string    `json:"due"`
	Zone   string    `json:"zone"`
	EndsAt time.Time `json:"ends_at"`
	// Responsible is the OwnerID of the user who answers for the deadline.
	Responsible string `json:"responsible"`
	// Reminders are schemas.ParseReminder's texts.
	Reminders []string `json:"reminders"`
	Status    string   `json:"status"`
	// ProposedBy is who proposed a deadline that waited for a confirmation
	// ("assistant", "court"); ConfirmedBy the OwnerID of who confirmed it.
	ProposedBy  string `json:"proposed_by,omitempty"`
	ConfirmedBy string `json:"confirmed_by,omitempty"`
	// Rev counts the deadline's writes, from 1.
	Rev       int64     `json:"rev"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// DeadlineComputation is a computed deadline's request and the rules' answer.
type DeadlineComputation struct {
	Request deadline.Request `json:"request"`
	Answer  deadline.Answer  `json:"answer"`
}

// NewDeadline is a deadline of case c with the given ID and status, owned by the
// case's owner, who also answers for it, and with the default reminders.
func NewDeadline(id string, c Case, status string) Deadline {
	owner := OwnerID(c.OrgID, c.UserID)
	return Deadline{ID: id, CaseID: c.ID, TenantID: c.OrgID, Owner: owner, Responsible: owner,
		Reminders: slices.Clone(schemas.DefaultReminders), Status: status}
}

// Plan is what the deadline's workflow keeps time by.
func (d Deadline) Plan() schemas.DeadlinePlan {
	return schemas.DeadlinePlan{Rev: d.Rev, Status: d.Status, Kind: d.Source.Kind, Due: d.Due, EndsAt: d.EndsAt,
		Zone: d.Zone, Responsible: d.Responsible, Reminders: d.Reminders}
}

// MaxUserDeadlines bounds the deadlines UserDeadlines returns.
const MaxUserDeadlines = 500

// Deadlines keeps the deadlines of cases.
type Deadlines interface {
	// CreateDeadline stores d with Rev 1 and its times set unless a deadline with its
	// ID exists; either way it returns the stored deadline, so creation can be retried.
	CreateDeadline(ctx context.Context, d Deadline) (Deadline, error)
	// GetDeadline returns deadline id of case caseID, or ErrNotFound (also for a
	// deadline of another case).
	GetDeadline(ctx context.Context, caseID, id string) (Deadline, error)
	// ListDeadlines returns a case's deadlines, soonest EndsAt first, then by ID.
	ListDeadlines(ctx context.Context, caseID string) ([]Deadline, error)
	// UserDeadlines returns the deadlines whose Owner or Responsible is owner, across
	// cases, soonest EndsAt first, then by ID, at most limit (at most
	// MaxUserDeadlines).
	UserDeadlines(ctx context.Context, owner string, limit int) ([]Deadline, error)
	// UpdateDeadline writes d over the stored deadline of its case and ID if that is
	// at revision d.Rev, keeping its ID, case, tenant, owner and creation time, and
	// returns it at the next revision with UpdatedAt now. A stored deadline at another
	// revision is ErrVersionConflict; none, ErrNotFound.
	UpdateDeadline(ctx context.Context, d Deadline) (Deadline, error)
	// DeleteDeadline deletes a case's deadline; ErrNotFound if there is none.
	DeleteDeadline(ctx context.Context, caseID, id string) error
}

// SetDay sets d's day: computed by the codes' rules from compute, or the day due in
// jurisdiction's court zone when compute is nil. Exactly one of them is needed; what
// the rules refuse is a deadline.Invalid.
func (d *Deadline) SetDay(compute *schemas.ComputeDeadlineArgs, due, jurisdiction string) error {
	switch {
	case compute != nil && due != "":
		return deadline.Invalid("give either computation or due, not both")
	case compute != nil:
		req := deadline.Request(*compute)
		answer, err := deadline.Compute(req)
		if err != nil {
			return err
		}
		d.Computation = &DeadlineComputation{Request: req, Answer: answer}
		d.Due, d.EndsAt, d.Zone = answer.Due, answer.EndsAt, answer.Zone
		return nil
	case due == "":
		return deadline.Invalid("give computation (a term to compute) or due (a day, YYYY-MM-DD, with its jurisdiction)")
	}
	at, zone, err := deadline.EndOf(jurisdiction, due)
	if err != nil {
		return err
	}
	d.Computation, d.Due, d.EndsAt, d.Zone = nil, due, at, zone
	return nil
}
