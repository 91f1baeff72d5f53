package workflows

import (
	"slices"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// morningsOptions govern reading the recipients' zones for the morning reminder: a
// store read of a few documents, retried for up to ten minutes while the store is
// down; past that the morning falls back to the court's zone rather than wait longer.
var morningsOptions = func() workflow.ActivityOptions {
	o := storeOptions
	o.ScheduleToCloseTimeout = 10 * time.Minute
	return o
}()

// readMornings reads when the plan's morning reminder reaches each recipient, in
// their own zone, once per plan revision: when the workflow starts (or continues as
// new) and when an Update re-plans it. A plan with no morning reminder reads nothing.
// A plan that changes while the read runs is read again. When the read fails, the
// morning is the court's for everyone (morningAt), and the workflow says so in its log.
func (k *keeper) readMornings(ctx workflow.Context) {
	for k.plan.Status == schemas.DeadlineActive && k.morningsRev != k.plan.Rev && slices.Contains(k.plan.Reminders, schemas.ReminderMorning) {
		rev := k.plan.Rev
		opts := morningsOptions
		opts.Summary = "Read the recipients' zones for deadline " + k.in.DeadlineID
		var m schemas.Mornings
		err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), notifyActs.ReadMornings,
			schemas.ReadMornings{Due: k.plan.Due, Zone: k.plan.Zone, Owners: k.recipients()}).Get(ctx, &m)
		if err != nil {
			workflow.GetLogger(ctx).Warn("Recipients' zones not read; the morning is the court's", "deadline", k.in.DeadlineID, "error", err)
			m = schemas.Mornings{}
		}
		k.mornings, k.morningsRev = m.Mornings, rev
	}
}

// morningAt is when the morning reminder reaches recipient to: 08:00 of the last day
// in their zone, as readMornings read it, or else in the court's zone: 16 hours before
// 24:00, since the courts' zones change their clocks at night, never between 08:00
// and midnight.
func (k *keeper) morningAt(to string) time.Time {
	if k.morningsRev == k.plan.Rev {
		for _, m := range k.mornings {
			if m.Owner == to {
				return m.At
			}
		}
	}
	return k.plan.EndsAt.Add(-(24 - schemas.MorningHour) * time.Hour)
}
