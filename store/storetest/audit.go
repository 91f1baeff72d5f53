package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// auditTests check store.Audit.
var auditTests = []subtest{
	{"RecordIsIdempotent", testRecordAuditIsIdempotent},
	{"ListNewestFirstByOrgAndCase", testListAudit},
}

func testRecordAuditIsIdempotent(t *testing.T, s store.Store) {
	org := newID("org")
	e := store.AuditEntry{ID: newID("audit"), At: time.Now().UTC().Truncate(time.Millisecond), Actor: "sam", Roles: []string{"support"},
		Action: "case.resume", OrgID: org, CaseID: newID("case"), Detail: map[string]any{"note": "checked the ticket"}}
	for range 2 {
		if err := s.RecordAudit(t.Context(), e); err != nil {
			t.Fatalf("RecordAudit = %v", err)
		}
	}
	got, err := s.ListAudit(t.Context(), store.AuditFilter{OrgID: org})
	if err != nil || len(got) != 1 {
		t.Fatalf("ListAudit = %d entries, %v; want the one recorded twice", len(got), err)
	}
	if !got[0].At.Equal(e.At) {
		t.Errorf("At = %v, want %v", got[0].At, e.At)
	}
	got[0].At = e.At
	if !reflect.DeepEqual(got[0], e) {
		t.Errorf("ListAudit = %+v, want %+v", got[0], e)
	}
}

func testListAudit(t *testing.T, s store.Store) {
	org, other := newID("org"), newID("org")
	caseA, caseB := newID("case"), newID("case")
	base := time.Now().UTC().Truncate(time.Millisecond)
	record := func(i int, org, caseID string) store.AuditEntry {
		e := store.AuditEntry{ID: newID("audit"), At: base.Add(time.Duration(i) * time.Second), Actor: "bea",
			Roles: []string{"billing"}, Action: "payment.offline", OrgID: org, CaseID: caseID}
		if err := s.RecordAudit(t.Context(), e); err != nil {
			t.Fatalf("RecordAudit = %v", err)
		}
		return e
	}
	e0, e1, e2 := record(0, org, caseA), record(1, org, caseB), record(2, org, caseA)
	record(3, other, newID("case"))
	ids := func(f store.AuditFilter) []string {
		got, err := s.ListAudit(t.Context(), f)
		if err != nil {
			t.Fatalf("ListAudit(%+v) = %v", f, err)
		}
		out := []string{}
		for _, e := range got {
			out = append(out, e.ID)
		}
		return out
	}
	for _, c := range []struct {
		f    store.AuditFilter
		want []string
	}{
		{store.AuditFilter{OrgID: org}, []string{e2.ID, e1.ID, e0.ID}},
		{store.AuditFilter{OrgID: org, Limit: 2}, []string{e2.ID, e1.ID}},
		{store.AuditFilter{OrgID: org, Before: e2.At}, []string{e1.ID, e0.ID}},
		{store.AuditFilter{CaseID: caseA}, []string{e2.ID, e0.ID}},
	} {
		if got := ids(c.f); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ListAudit(%+v) = %v, want %v", c.f, got, c.want)
		}
	}
}
