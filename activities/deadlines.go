package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lexflow/lexflow/internal/deadline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Deadlines are the activities of a case's deadlines: compute_deadline, proposing a
// deadline (propose_deadline, the court watch), and marking one missed.
type Deadlines struct {
	Cases     store.Cases
	Deadlines store.Deadlines
}

// ComputeDeadline is compute_deadline: the day a term ends by the codes' rules, with
// the rules and the days skipped. A term the rules cannot compute is an error result
// that says why, for the model to correct.
func (a *Deadlines) ComputeDeadline(_ context.Context, args schemas.ComputeDeadlineArgs) (schemas.ComputedDeadline, error) {
	answer, err := deadline.Compute(deadline.Request(args))
	var invalid deadline.Invalid
	switch {
	case errors.As(err, &invalid):
		return schemas.ComputedDeadline{Status: schemas.ResultError, ErrorMessage: invalid.Error()}, nil
	case err != nil:
		return schemas.ComputedDeadline{}, err
	}
	return computedOf(answer), nil
}

// computedOf is an answer of the rules as compute_deadline shows it.
func computedOf(a deadline.Answer) schemas.ComputedDeadline {
	out := schemas.ComputedDeadline{Status: schemas.ResultSuccess, Due: a.Due, EndsAt: a.EndsAt.Format(time.RFC3339), Zone: a.Zone}
	for _, r := range a.Rules {
		out.Rules = append(out.Rules, schemas.DeadlineRule(r))
	}
	for _, s := range a.NonWorking {
		out.NonWorking = append(out.NonWorking, schemas.DeadlineSkipped(s))
	}
	return out
}

// ProposeDeadline stores a proposed deadline in its case, once per DeadlineID, and
// returns the notification that tells the case's owner. A proposal that cannot be a
// deadline (no title, an unknown source, a day the rules cannot compute) is an error
// result that says why; a case that is not stored is CaseNotFound.
func (a *Deadlines) ProposeDeadline(ctx context.Context, in schemas.ProposeDeadline) (schemas.Proposal, error) {
	refuse := func(msg string) (schemas.Proposal, error) {
		return schemas.Proposal{Result: schemas.ProposedDeadline{Status: schemas.ResultError, ErrorMessage: msg}}, nil
	}
	args := in.Args
	args.Title = strings.TrimSpace(args.Title)
	if err := schemas.CheckDeadline(args.Title, args.Source); err != nil {
		return refuse(err.Error())
	}
	c, err := a.Cases.GetCase(ctx, args.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return refuse(schemas.CaseNotFound)
	}
	if err != nil {
		return schemas.Proposal{}, fmt.Errorf("read case: %w", err)
	}
	d := store.NewDeadline(in.DeadlineID, c, schemas.DeadlineProposed)
	d.Title, d.Source, d.ProposedBy = args.Title, args.Source, in.ProposedBy
	if err := d.SetDay(args.Computation, args.Due, args.Jurisdiction); err != nil {
		var invalid deadline.Invalid
		if errors.As(err, &invalid) {
			return refuse(invalid.Error())
		}
		return schemas.Proposal{}, err
	}
	stored, err := a.Deadlines.CreateDeadline(ctx, d)
	if err != nil {
		return schemas.Proposal{}, fmt.Errorf("store deadline: %w", err)
	}
	return schemas.Proposal{
		Result: schemas.ProposedDeadline{Status: schemas.ResultSuccess, DeadlineID: stored.ID, Due: stored.Due, Deadline: stored.Status},
		Notify: &schemas.Notification{
			Key:  schemas.DeadlineNotificationKey(stored.ID, schemas.NotifyDeadlineProposed, "", stored.Due, stored.Owner),
			Kind: schemas.NotifyDeadlineProposed, TenantID: stored.TenantID, Owner: stored.Owner, CaseID: stored.CaseID,
			DeadlineID: stored.ID, Due: stored.EndsAt, Language: c.Language, Params: map[string]string{schemas.ParamSource: stored.Source.Kind},
		},
	}, nil
}

// MarkDeadlineMissed marks a deadline missed if it is still active at the workflow's
// revision, and says whether it did; a retry after it did finds its own write. A
// deadline that changed meanwhile is left as it is, and its plan returned for the
// workflow to keep time by; one deleted meanwhile is a cancelled plan.
func (a *Deadlines) MarkDeadlineMissed(ctx context.Context, in schemas.MarkDeadlineMissed) (schemas.MarkedMissed, error) {
	// A conflict means another write came between the read and the write: the next
	// read finds another revision and returns, so this loops at most twice.
	for {
		d, err := a.Deadlines.GetDeadline(ctx, in.CaseID, in.DeadlineID)
		if errors.Is(err, store.ErrNotFound) {
			return schemas.MarkedMissed{Plan: schemas.DeadlinePlan{Rev: in.Rev + 1, Status: schemas.DeadlineCancelled}}, nil
		}
		if err != nil {
			return schemas.MarkedMissed{}, fmt.Errorf("read deadline: %w", err)
		}
		switch {
		case d.Status == schemas.DeadlineMissed && d.Rev == in.Rev+1:
			return schemas.MarkedMissed{Marked: true, Plan: d.Plan()}, nil
		case d.Status != schemas.DeadlineActive || d.Rev != in.Rev:
			return schemas.MarkedMissed{Plan: d.Plan()}, nil
		}
		d.Status = schemas.DeadlineMissed
		marked, err := a.Deadlines.UpdateDeadline(ctx, d)
		if errors.Is(err, store.ErrVersionConflict) {
			continue
		}
		if err != nil {
			return schemas.MarkedMissed{}, fmt.Errorf("mark deadline missed: %w", err)
		}
		return schemas.MarkedMissed{Marked: true, Plan: marked.Plan()}, nil
	}
}
