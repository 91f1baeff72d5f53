package schemas

import (
	"testing"
	"time"
)

// TestDeadlineWorkflowIDNamesItsTenant: a deadline's payloads are sealed for its
// tenant, whose key holds ":" itself.
func TestDeadlineWorkflowIDNamesItsTenant(t *testing.T) {
	id := DeadlineWorkflowID(TenantKey("acme", "ana"), "7f0c9e1a-0000-4000-8000-000000000001", "5b1d0e2c-0000-4000-8000-000000000002")
	if got := TenantOfWorkflow(id); got != "org:acme" {
		t.Errorf("TenantOfWorkflow(%s) = %q, want org:acme", id, got)
	}
	if got := CaseOfWorkflow(id); got != "" {
		t.Errorf("CaseOfWorkflow(%s) = %q: a deadline is sealed for its tenant, not its case", id, got)
	}
}

func TestParseReminder(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"morning", 0, true}, {"168h", 168 * time.Hour, true}, {"30s", 30 * time.Second, true}, {"1s", time.Second, true},
		{"8784h", 366 * 24 * time.Hour, true}, {"8785h", 0, false}, {"500ms", 0, false}, {"1.5s", 0, false},
		{"-48h", 0, false}, {"+48h", 0, false}, {"0s", 0, false}, {"2 days", 0, false}, {"", 0, false}, {"Morning", 0, false},
	} {
		got, err := ParseReminder(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseReminder(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
