package workflows

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// Deadline keeps one active deadline's time: it sleeps on durable timers until each
// reminder and sends it (to the responsible user and the case's owner) through the
// Notify activity, the morning reminder at 08:00 in each recipient's own zone (read
// through the ReadMornings activity when it plans); at 24:00 of the last day, if the
// deadline was not marked done, it marks it missed, tells them (deadline.missed) and
// opens a support ticket. Changes
// reach it as the deadline-plan Update, which re-plans its timers; a plan that is no
// longer active (done, cancelled, deleted) ends it. It is started by the API, not as
// a child of its case, so closing the case leaves it running (docs/workflows.md).
// It auto-upgrades, and continues as new when the server suggests it.
func Deadline(ctx workflow.Context, in schemas.DeadlineInput) (schemas.DeadlineResult, error) {
	k := &keeper{in: in, plan: in.Plan, plannedAt: in.PlannedAt, sent: slices.Clone(in.Sent)}
	if k.plannedAt.IsZero() {
		k.plannedAt = workflow.Now(ctx)
	}
	if err := k.setup(ctx); err != nil {
		return schemas.DeadlineResult{}, err
	}
	return k.run(ctx)
}

// keeper is a Deadline workflow's state, all of it serializable into its input.
type keeper struct {
	in        schemas.DeadlineInput
	plan      schemas.DeadlinePlan
	plannedAt time.Time
	sent      []string
	// changed says an Update brought a newer plan since the current wait began.
	changed bool
	// mornings are when the morning reminder reaches each recipient, read for the
	// plan of revision morningsRev (readMornings).
	mornings    []schemas.Morning
	morningsRev int64
}

// setup registers the deadline-plan Update, whose validator refuses a plan older than
// the one kept or one that does not parse.
func (k *keeper) setup(ctx workflow.Context) error {
	return workflow.SetUpdateHandlerWithOptions(ctx, schemas.UpdateDeadlinePlan,
		func(ctx workflow.Context, p schemas.DeadlinePlan) (schemas.DeadlinePlan, error) {
			if p.Rev > k.plan.Rev {
				k.plan, k.plannedAt, k.changed = p, workflow.Now(ctx), true
			}
			return k.plan, nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, p schemas.DeadlinePlan) error {
			switch {
			case p.Rev < k.plan.Rev:
				return fmt.Errorf("plan revision %d is older than the kept %d", p.Rev, k.plan.Rev)
			case p.Status == schemas.DeadlineActive && p.EndsAt.IsZero():
				return errors.New("an active plan needs its end")
			}
			return schemas.CheckReminders(p.Reminders)
		}})
}

// run waits for each event of the plan in turn, and ends when the plan does.
func (k *keeper) run(ctx workflow.Context) (schemas.DeadlineResult, error) {
	for {
		if k.plan.Status != schemas.DeadlineActive {
			return k.end(ctx)
		}
		k.changed = false
		k.readMornings(ctx)
		if k.changed {
			continue // an Update came while the zones were read: plan again
		}
		ev := k.next()
		if wait := ev.at.Sub(workflow.Now(ctx)); wait > 0 {
			_, err := workflow.AwaitWithOptions(ctx, workflow.AwaitOptions{Timeout: wait,
				TimerOptions: workflow.TimerOptions{Summary: ev.summary(k.in.DeadlineID, k.plan.Due)}},
				func() bool { return k.changed })
			if err != nil {
				return schemas.DeadlineResult{}, err
			}
			if k.changed {
				continue
			}
		}
		if ev.missed {
			if err := k.missed(ctx); err != nil {
				return schemas.DeadlineResult{}, err
			}
		} else {
			k.remind(ctx, ev)
		}
		if workflow.GetInfo(ctx).GetContinueAsNewSuggested() && k.plan.Status == schemas.DeadlineActive {
			return k.continueAsNew(ctx)
		}
	}
}

// deadlineEvent is what the keeper waits for next: a reminder's sends, all due at one
// instant, or the deadline's end.
type deadlineEvent struct {
	at     time.Time
	missed bool
	// reminder is the reminder's text; sends its notifications.
	reminder string
	sends    []schemas.Notification
}

// summary names the event's timer in the Web UI.
func (e deadlineEvent) summary(id, due string) string {
	if e.missed {
		return fmt.Sprintf("Deadline %s ends (due %s)", id, due)
	}
	return fmt.Sprintf("Reminder %s of deadline %s (due %s)", e.reminder, id, due)
}

// next is the plan's next event: the earliest reminder not yet sent and due no
// sooner than the plan took effect, or else the deadline's end.
func (k *keeper) next() deadlineEvent {
	var best *deadlineEvent
	for _, r := range k.plan.Reminders {
		for _, to := range k.recipients() {
			at, ok := k.reminderAt(r, to)
			if !ok || at.Before(k.plannedAt) || !at.Before(k.plan.EndsAt) {
				continue
			}
			n := k.notification(schemas.NotifyDeadlineReminder, r, to)
			n.Params[schemas.ParamOffset] = r
			if slices.Contains(k.sent, n.Key) {
				continue
			}
			switch {
			case best == nil || at.Before(best.at):
				best = &deadlineEvent{at: at, reminder: r, sends: []schemas.Notification{n}}
			case at.Equal(best.at):
				best.sends = append(best.sends, n)
			}
		}
	}
	if best != nil {
		return *best
	}
	return deadlineEvent{at: k.plan.EndsAt, missed: true}
}

// reminderAt is when reminder r of the plan reaches recipient to: its offset before
// the end, or the morning of the last day in their zone (morningAt). False for a
// reminder that does not parse.
func (k *keeper) reminderAt(r, to string) (time.Time, bool) {
	offset, err := schemas.ParseReminder(r)
	if err != nil {
		return time.Time{}, false
	}
	if offset == 0 {
		return k.morningAt(to), true
	}
	return k.plan.EndsAt.Add(-offset), true
}

// recipients are the responsible user and the case's owner, once each.
func (k *keeper) recipients() []string {
	if k.plan.Responsible == "" || k.plan.Responsible == k.in.Owner {
		return []string{k.in.Owner}
	}
	return []string{k.plan.Responsible, k.in.Owner}
}

// notification is the deadline's notification of kind for one recipient; reminder
// names a reminder ("" for others). It names the deadline's kind, never its title.
func (k *keeper) notification(kind, reminder, to string) schemas.Notification {
	return schemas.Notification{Key: schemas.DeadlineNotificationKey(k.in.DeadlineID, kind, reminder, k.plan.Due, to),
		Kind: kind, TenantID: k.in.TenantID, Owner: to, CaseID: k.in.CaseID, DeadlineID: k.in.DeadlineID,
		Due: k.plan.EndsAt, Language: k.in.Language, Params: map[string]string{schemas.ParamSource: k.plan.Kind}}
}

// remind sends a reminder's notifications and records them sent.
func (k *keeper) remind(ctx workflow.Context, ev deadlineEvent) {
	for _, n := range ev.sends {
		notify(ctx, n, fmt.Sprintf("Remind %s of deadline %s (%s before)", n.Owner, k.in.DeadlineID, ev.reminder))
		k.sent = append(k.sent, n.Key)
	}
}

// missed marks the deadline missed in the store unless it changed meanwhile (then
// the stored plan is kept instead), tells the recipients, and opens a ticket.
func (k *keeper) missed(ctx workflow.Context) error {
	opts := storeOptions
	opts.Summary = "Mark deadline " + k.in.DeadlineID + " missed"
	var m schemas.MarkedMissed
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), deadlineActs.MarkDeadlineMissed,
		schemas.MarkDeadlineMissed{CaseID: k.in.CaseID, DeadlineID: k.in.DeadlineID, Rev: k.plan.Rev}).Get(ctx, &m)
	if err != nil {
		return err
	}
	if !m.Marked {
		if m.Plan.Rev > k.plan.Rev {
			k.plan, k.plannedAt = m.Plan, workflow.Now(ctx)
		}
		return nil
	}
	k.plan.Status, k.plan.Rev = schemas.DeadlineMissed, m.Plan.Rev // the plan it kept, marked
	for _, to := range k.recipients() {
		notify(ctx, k.notification(schemas.NotifyDeadlineMissed, "", to), "Tell "+to+" deadline "+k.in.DeadlineID+" was missed")
	}
	opts.Summary = "Open a ticket for missed deadline " + k.in.DeadlineID
	id := schemas.DeadlineTicketID(k.in.CaseID, k.in.DeadlineID, k.plan.Due)
	var res schemas.TicketResult
	return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), ticketActs.CreateSupportTicket, schemas.SupportTicketInput{
		TicketID: id, UserID: k.in.Owner, Deadline: k.in.DeadlineID,
		Args: schemas.CreateSupportTicketArgs{CaseID: k.in.CaseID, IssueDescription: fmt.Sprintf(
			"Deadline %s (%s) ended at %s (%s, %s) without being marked done.",
			k.in.DeadlineID, k.plan.Kind, k.plan.EndsAt.UTC().Format(time.RFC3339), k.plan.Due, k.plan.Zone)},
	}).Get(ctx, &res)
}

// end returns the plan's status once the Updates in flight have answered.
func (k *keeper) end(ctx workflow.Context) (schemas.DeadlineResult, error) {
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return schemas.DeadlineResult{}, err
	}
	return schemas.DeadlineResult{Status: k.plan.Status}, nil
}

// continueAsNew starts the deadline's next run with its plan and the sends of its
// current day, once the Updates in flight have answered.
func (k *keeper) continueAsNew(ctx workflow.Context) (schemas.DeadlineResult, error) {
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return schemas.DeadlineResult{}, err
	}
	in := k.in
	in.Plan, in.PlannedAt, in.Sent = k.plan, k.plannedAt, nil
	for _, key := range k.sent {
		if strings.Contains(key, ":"+k.plan.Due+":") {
			in.Sent = append(in.Sent, key)
		}
	}
	return schemas.DeadlineResult{}, workflow.NewContinueAsNewError(ctx, schemas.DeadlineWorkflow, in)
}
