package schemas

import (
	"fmt"
	"strings"
	"time"
)

// SupportStuck is the support list of the cases stuck on the agent: waiting on it with
// no progress for longer than the stuck threshold.
const SupportStuck = "stuck"

// QuoteVisibility escapes a value for a single-quoted string of a visibility query,
// whose parser takes a backslash as an escape and a doubled quote as a quote.
func QuoteVisibility(s string) string {
	return strings.NewReplacer(`\`, `\\`, "'", "''").Replace(s)
}

// TenantClause is the visibility condition of a tenant's cases: its Tenant key, or,
// for runs from before cases set Tenant, the bare TenantID, which an organization
// shares with a user of the same name.
func TenantClause(org, subject string) string {
	raw := org
	if raw == "" {
		raw = subject
	}
	return fmt.Sprintf("(Tenant = '%s' OR (Tenant IS NULL AND TenantID = '%s'))",
		QuoteVisibility(TenantKey(org, subject)), QuoteVisibility(raw))
}

// RunningCasesQuery is the visibility query of the running Case workflows; a non-empty
// org keeps it to that organization's cases.
func RunningCasesQuery(org string) string {
	q := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running'", CaseWorkflow)
	if org != "" {
		q += " AND " + TenantClause(org, "")
	}
	return q
}

// SupportQuery is the visibility query of a support list (a case status, or
// SupportStuck): the same one the Web UI's search box takes. A non-empty org keeps the
// list to that organization's cases.
func SupportQuery(status, org string, now time.Time, stuckAfter time.Duration) string {
	q := RunningCasesQuery(org) + " AND "
	if status == SupportStuck {
		return q + fmt.Sprintf("WaitingOn = '%s' AND ProgressAt < '%s'", WaitingOnAgent, now.Add(-stuckAfter).UTC().Format(time.RFC3339))
	}
	return q + fmt.Sprintf("CaseStatus = '%s'", status)
}
