package storetest

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// auditTests check store.Audit.
var auditTests = []subtest{
	{"RecordIsIdempotent", testRecordAuditIsIdempotent},
	{"ListNewestFirstByOrgAndCase", testListAudit},
	{"ListAcrossOrganizations", testListAuditAcrossOrgs},
	{"GetByID", testGetAudit},
	{"DetailKeysAreAnything", testAuditDetailKeys},
}

// testAuditDetailKeys (issue 36, finding 19): a detail whose keys are dotted field
// paths, start with "$" or are empty, as an admin's update_case_details run has them,
// is recorded and read back as it was given.
func testAuditDetailKeys(t *testing.T, s store.Store) {
	org := newID("org")
	e := store.AuditEntry{ID: newID("audit"), At: time.Now().UTC().Truncate(time.Millisecond), Actor: "root", Roles: []string{"admin"},
		Action: "tool.execute", OrgID: org, CaseID: newID("case"), Detail: map[string]any{
			"tool": "update_case_details",
			"args": map[string]any{"updates": map[string]any{"summary.current": "[masked]", "$set": map[string]any{"a.b": "[masked]"}, "": true},
				"$where": []any{"x", 2.5, nil}},
		}}
	if err := s.RecordAudit(t.Context(), e); err != nil {
		t.Fatalf("RecordAudit = %v", err)
	}
	got, err := s.ListAudit(t.Context(), store.AuditFilter{OrgID: org})
	if err != nil || len(got) != 1 {
		t.Fatalf("ListAudit = %d entries, %v; want the one recorded", len(got), err)
	}
	if !reflect.DeepEqual(got[0].Detail, e.Detail) {
		t.Errorf("Detail = %#v, want %#v", got[0].Detail, e.Detail)
	}
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
		{store.AuditFilter{OrgID: org, CaseID: caseA, Limit: 1}, []string{e2.ID}},
	} {
		if got := ids(c.f); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ListAudit(%+v) = %v, want %v", c.f, got, c.want)
		}
	}
}

// testListAuditAcrossOrgs lists the operator's view, every organization's entries: two
// recorded at a moment of 2001 no other test uses, found by Before.
func testListAuditAcrossOrgs(t *testing.T, s store.Store) {
	at := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rand.Int64N(int64(365*24*time.Hour))) / time.Millisecond * time.Millisecond)
	var want []string
	for i, org := range []string{newID("org"), newID("org")} {
		e := store.AuditEntry{ID: newID("audit"), At: at.Add(time.Duration(i) * time.Second), Actor: "olga",
			Roles: []string{"admin"}, Action: "case.hold", OrgID: org}
		if err := s.RecordAudit(t.Context(), e); err != nil {
			t.Fatalf("RecordAudit = %v", err)
		}
		want = append([]string{e.ID}, want...)
	}
	got, err := s.ListAudit(t.Context(), store.AuditFilter{Before: at.Add(2 * time.Second), Limit: 2})
	if err != nil {
		t.Fatalf("ListAudit = %v", err)
	}
	var ids []string
	for _, e := range got {
		ids = append(ids, e.ID)
	}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("ListAudit of every organization before %v = %v, want %v, newest first", at.Add(2*time.Second), ids, want)
	}
}

func testGetAudit(t *testing.T, s store.Store) {
	e := store.AuditEntry{ID: newID("audit"), At: time.Now().UTC().Truncate(time.Millisecond), Actor: "sam", Roles: []string{"billing"},
		Action: "payment.offline", OrgID: newID("org"), CaseID: newID("case"), Detail: map[string]any{"amount": "39900", "currency": "eur"}}
	if err := s.RecordAudit(t.Context(), e); err != nil {
		t.Fatalf("RecordAudit = %v", err)
	}
	got, err := s.GetAudit(t.Context(), e.ID)
	if err != nil || got.Actor != e.Actor || got.Action != e.Action || got.CaseID != e.CaseID || !got.At.Equal(e.At) ||
		got.Detail["amount"] != "39900" || got.Detail["currency"] != "eur" {
		t.Fatalf("GetAudit = %+v, %v; want %+v", got, err, e)
	}
	if _, err := s.GetAudit(t.Context(), newID("audit")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetAudit of no entry = %v, want ErrNotFound", err)
	}
}
