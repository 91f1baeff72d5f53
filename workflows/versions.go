package workflows

import (
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// Change is a change to an auto-upgrade workflow's code (Case, Quota, SupportTicket,
// Deadline) that its running executions must replay around, guarded by
// workflow.GetVersion(ctx, ID, workflow.DefaultVersion, 1). Pinned workflows never
// call GetVersion: a pinned run finishes on the build it started on, and their
// changes ship as a new worker deployment version (see docs/workflows.md).
//
// A change's guard and old branch can be deleted once no open execution of its
// Workflows that started before Since lacks the marker: such a run started on a build
// without the change and may still replay the old branch. The SDK records only the
// version a run took (TemporalChangeVersion '<ID>-1'), never the default branch, so
// `lexflow versions` counts those runs for each change; at zero, delete the change,
// its guard and its old branch.
type Change struct {
	// ID is the change ID passed to workflow.GetVersion.
	ID string
	// Workflows are the workflow types that call GetVersion with ID.
	Workflows []string
	// Since is when the first build with the change became current for the
	// deployment's workers: runs started before it may lack the change.
	Since time.Time
}

// Changes are the change IDs in use, oldest first. The markers were reset when no
// production case existed yet (issue 35).
var Changes = []Change{
	// A case verifies the audited record behind a resumption, a closing or a raised
	// budget before it acts on it (issue 36).
	{ID: verifiedActions, Workflows: []string{schemas.CaseWorkflow}, Since: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)},
	// An answer to tiering's question remembers its idempotency key (issue 36).
	{ID: tieringKeys, Workflows: []string{schemas.CaseWorkflow}, Since: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)},
	// A case records the ticket of an unanswered question in
	// case_details.escalation (issue 37).
	{ID: escalationRecords, Workflows: []string{schemas.CaseWorkflow}, Since: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)},
	// A new case greets its client before tiering (issue 42).
	{ID: welcomeChange, Workflows: []string{schemas.CaseWorkflow}, Since: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)},
	// A closing case starts its ProposeMemory workflow (issue 42).
	{ID: memoryProposals, Workflows: []string{schemas.CaseWorkflow}, Since: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)},
}
