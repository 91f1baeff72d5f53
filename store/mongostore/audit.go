package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// auditDoc is an audit entry as stored. Its Detail is the entry's JSON text
// (store.AuditEntry.DetailJSON), or, in entries written before it was, a document.
type auditDoc struct {
	ID       string    `bson:"_id"`
	At       time.Time `bson:"at"`
	Actor    string    `bson:"actor"`
	ActorOrg string    `bson:"actor_org,omitempty"`
	Roles    []string  `bson:"roles"`
	Action   string    `bson:"action"`
	OrgID    string    `bson:"org_id,omitempty"`
	CaseID   string    `bson:"case_id,omitempty"`
	Detail   any       `bson:"detail,omitempty"`
}

// RecordAudit inserts e unless an entry with its ID exists.
func (s *Store) RecordAudit(ctx context.Context, e store.AuditEntry) error {
	detail, err := e.DetailJSON()
	if err != nil {
		return err
	}
	d := auditDoc{ID: e.ID, At: e.At.UTC(), Actor: e.Actor, ActorOrg: e.ActorOrg, Roles: e.Roles,
		Action: e.Action, OrgID: e.OrgID, CaseID: e.CaseID}
	if detail != "" {
		d.Detail = detail
	}
	if _, err := s.audit.InsertOne(ctx, d); err != nil && !mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("record audit entry: %w", err)
	}
	return nil
}

// ListAudit returns the entries f selects, newest first.
func (s *Store) ListAudit(ctx context.Context, f store.AuditFilter) ([]store.AuditEntry, error) {
	filter := bson.M{}
	if f.OrgID != "" {
		filter["org_id"] = f.OrgID
	}
	if f.CaseID != "" {
		filter["case_id"] = f.CaseID
	}
	if !f.Before.IsZero() {
		filter["at"] = bson.M{"$lt": f.Before.UTC()}
	}
	opts := options.Find().SetSort(bson.D{{Key: "at", Value: -1}, {Key: "_id", Value: -1}})
	if f.Limit > 0 {
		opts.SetLimit(int64(f.Limit))
	}
	docs, err := findAll[auditDoc](ctx, s.audit, filter, "audit entries", opts)
	if err != nil {
		return nil, err
	}
	out := make([]store.AuditEntry, len(docs))
	for i, d := range docs {
		if out[i], err = d.entry(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// GetAudit returns the entry with the ID id, or store.ErrNotFound.
func (s *Store) GetAudit(ctx context.Context, id string) (store.AuditEntry, error) {
	d, err := findOne[auditDoc](ctx, s.audit, bson.M{"_id": id}, "audit entry")
	if err != nil {
		return store.AuditEntry{}, err
	}
	return d.entry()
}

// entry is the audit entry d stores.
func (d auditDoc) entry() (store.AuditEntry, error) {
	e := store.AuditEntry{ID: d.ID, At: d.At, Actor: d.Actor, ActorOrg: d.ActorOrg, Roles: d.Roles,
		Action: d.Action, OrgID: d.OrgID, CaseID: d.CaseID}
	var err error
	if e.Detail, err = auditDetail(d.Detail); err != nil {
		return e, fmt.Errorf("audit entry %s: %w", d.ID, err)
	}
	return e, nil
}

// auditDetail reads an auditDoc's Detail: a JSON text, or a document.
func auditDetail(v any) (map[string]any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		return store.DetailFromJSON(v)
	}
	m, ok := plain(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("detail is a %T", v)
	}
	return m, nil
}
