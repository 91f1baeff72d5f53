package activities

import (
	"context"
	"testing"

	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// auditLog is an in-memory store.Audit.
type auditLog map[string]store.AuditEntry

func (l auditLog) RecordAudit(_ context.Context, e store.AuditEntry) error {
	if _, ok := l[e.ID]; !ok {
		l[e.ID] = e
	}
	return nil
}

func (l auditLog) GetAudit(_ context.Context, id string) (store.AuditEntry, error) {
	e, ok := l[id]
	if !ok {
		return e, store.ErrNotFound
	}
	return e, nil
}

func (l auditLog) ListAudit(context.Context, store.AuditFilter) ([]store.AuditEntry, error) {
	return nil, nil
}

// TestVerifyAction: an event acts only on the audited record of its own kind, case
// (or tenant) and actor; a support resumption with the action close backs the closing
// a stalled case runs again; every refusal is audited.
func TestVerifyAction(t *testing.T) {
	log := auditLog{
		"resume":       {ID: "resume", Action: schemas.ActionResume, Actor: "sam", CaseID: "c1", Detail: map[string]any{"action": schemas.ResumeRetry}},
		"resume-close": {ID: "resume-close", Action: schemas.ActionResume, Actor: "sam", CaseID: "c1", Detail: map[string]any{"action": schemas.ResumeClose}},
		"resume-tier":  {ID: "resume-tier", Action: schemas.ActionResume, Actor: "sam", CaseID: "c1", Detail: map[string]any{"action": schemas.ResumeContinue, "tier": 3.0}},
		"close":        {ID: "close", Action: schemas.ActionClose, Actor: "ana", CaseID: "c1"},
		"budget":       {ID: "budget", Action: schemas.ActionBudget, Actor: "root", Detail: map[string]any{"tenant": "org:acme"}},
	}
	a := &Actions{Audit: log}
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(a)
	for _, c := range []struct {
		name string
		in   schemas.VerifyAction
		ok   bool
	}{
		{"a resumption", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionResume, ID: "resume", By: "sam"}, true},
		{"a closing", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionClose, ID: "close", By: "ana"}, true},
		{"a closing from support's close", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionClose, ID: "resume-close", By: "sam"}, true},
		{"a budget", schemas.VerifyAction{CaseID: "c9", Tenant: "org:acme", Action: schemas.ActionBudget, ID: "budget", By: "root"}, true},
		{"a tier its record names", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionResume, ID: "resume-tier", By: "sam", Tier: 3}, true},
		{"a tier its record does not name", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionResume, ID: "resume-tier", By: "sam", Tier: 1}, false},
		{"a tier on a record of none", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionResume, ID: "resume", By: "sam", Tier: 1}, false},
		{"a closing from a retry", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionClose, ID: "resume", By: "sam"}, false},
		{"no record", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionClose, ID: "forged", By: "ana"}, false},
		{"another actor", schemas.VerifyAction{CaseID: "c1", Action: schemas.ActionClose, ID: "close", By: "mallory"}, false},
		{"another case", schemas.VerifyAction{CaseID: "c2", Action: schemas.ActionClose, ID: "close", By: "ana"}, false},
		{"another tenant's budget", schemas.VerifyAction{CaseID: "c9", Tenant: "org:globex", Action: schemas.ActionBudget, ID: "budget", By: "root"}, false},
	} {
		_, err := env.ExecuteActivity(a.VerifyAction, c.in)
		if c.ok != (err == nil) {
			t.Errorf("%s: %v, want accepted %v", c.name, err, c.ok)
		}
		if !c.ok && !hasRefusal(log, c.in.CaseID, c.in.ID) {
			t.Errorf("%s: refused without an audit entry", c.name)
		}
	}
}

// hasRefusal reports whether the log holds the refusal of the event id of caseID.
func hasRefusal(log auditLog, caseID, id string) bool {
	for _, e := range log {
		if e.Action == schemas.ActionRefused && e.CaseID == caseID && e.Detail["id"] == id {
			return true
		}
	}
	return false
}
