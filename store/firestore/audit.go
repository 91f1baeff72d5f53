package firestore

import (
	"context"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// auditData is an audit entry as stored. Its Detail is the entry's JSON text
// (store.AuditEntry.DetailJSON), or, in entries written before it was, a map.
type auditData struct {
	ID       string    `firestore:"id"`
	At       time.Time `firestore:"at"`
	Actor    string    `firestore:"actor"`
	ActorOrg string    `firestore:"actor_org,omitempty"`
	Roles    []string  `firestore:"roles"`
	Action   string    `firestore:"action"`
	OrgID    string    `firestore:"org_id,omitempty"`
	CaseID   string    `firestore:"case_id,omitempty"`
	Detail   any       `firestore:"detail,omitempty"`
}

// RecordAudit creates the entry's document unless it exists.
func (s *Store) RecordAudit(ctx context.Context, e store.AuditEntry) error {
	detail, err := e.DetailJSON()
	if err != nil {
		return err
	}
	d := auditData{ID: e.ID, At: e.At.UTC(), Actor: e.Actor, ActorOrg: e.ActorOrg, Roles: e.Roles,
		Action: e.Action, OrgID: e.OrgID, CaseID: e.CaseID}
	if detail != "" {
		d.Detail = detail
	}
	if _, err := s.doc(AuditCollection, e.ID).Create(ctx, d); err != nil && !exists(err) {
		return fmt.Errorf("record audit entry: %w", err)
	}
	return nil
}

// GetAudit returns the entry with the ID id, or store.ErrNotFound.
func (s *Store) GetAudit(ctx context.Context, id string) (store.AuditEntry, error) {
	d, err := read[auditData](ctx, nil, s.doc(AuditCollection, id), "audit entry "+id)
	if err != nil {
		return store.AuditEntry{}, err
	}
	return d.entry()
}

// ListAudit returns the entries f selects, newest first.
func (s *Store) ListAudit(ctx context.Context, f store.AuditFilter) ([]store.AuditEntry, error) {
	q := s.client.Collection(AuditCollection).Query
	if f.OrgID != "" {
		q = q.Where("org_id", "==", f.OrgID)
	}
	if f.CaseID != "" {
		q = q.Where("case_id", "==", f.CaseID)
	}
	if !f.Before.IsZero() {
		q = q.Where("at", "<", f.Before.UTC())
	}
	q = q.OrderBy("at", fs.Desc).OrderBy("id", fs.Desc)
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	docs, err := all[auditData](ctx, q)
	if err != nil {
		return nil, fmt.Errorf("list audit entries: %w", err)
	}
	out := make([]store.AuditEntry, len(docs))
	for i, d := range docs {
		if out[i], err = d.entry(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// entry is the audit entry d stores.
func (d auditData) entry() (store.AuditEntry, error) {
	e := store.AuditEntry{ID: d.ID, At: d.At, Actor: d.Actor, ActorOrg: d.ActorOrg, Roles: d.Roles,
		Action: d.Action, OrgID: d.OrgID, CaseID: d.CaseID}
	var err error
	switch detail := d.Detail.(type) {
	case string:
		if e.Detail, err = store.DetailFromJSON(detail); err != nil {
			return e, fmt.Errorf("audit entry %s: %w", d.ID, err)
		}
	case map[string]any:
		e.Detail = detail
	}
	return e, nil
}
